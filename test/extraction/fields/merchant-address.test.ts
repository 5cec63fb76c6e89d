import { describe, expect, it } from 'vitest';
import { mendFromAddress } from '../../../src/extraction/fields/merchant-address.ts';
import { extractReceiptFields } from '../../../src/extraction/fields/receipt.ts';
import { page } from './helpers.ts';

describe('merchant name mended from its web or e-mail address', () => {
  it('puts back one letter OCR misread, lost or added, in the case of the name', () => {
    expect(mendFromAddress('TIRES BOOKSTORES', 'For feedback, email to timesbookstoresetog.com.mu')).toBe('TIMES BOOKSTORES');
    expect(mendFromAddress('TIMS BOOKSTORES SDN BHD', 'www.timesbookstores.com.my')).toBe('TIMES BOOKSTORES SDN BHD');
    expect(mendFromAddress('TIMMES BOOKSTORES', 'www.timesbookstores.com.my')).toBe('TIMES BOOKSTORES');
    expect(mendFromAddress('Sunrlse Cafe', 'sunrisecafe@gmail.com')).toBe('Sunrise Cafe');
  });

  it('reads the address without the legal form before a quoted name, and leaves accents the address cannot spell', () => {
    expect(mendFromAddress('SIA "PASAŽIERI VILCIENS"', 'www.pasazieruvilciens.lv')).toBe('SIA "PASAŽIERU VILCIENS"');
    expect(mendFromAddress('SIA "PASAŽIERU VILCIENS"', 'www.pasazieruvilciens.lv')).toBe('SIA "PASAŽIERU VILCIENS"');
  });

  it('leaves a name alone with no address near it, a mail provider, short names and letters put before the name', () => {
    expect(mendFromAddress('GOLDEN DRAGON', 'info@gmail.com')).toBe('GOLDEN DRAGON');
    expect(mendFromAddress('GOLDEN DRAGON', 'TEL 03-1234 5678')).toBe('GOLDEN DRAGON');
    expect(mendFromAddress('KEDAI', 'www.kedal.com.my')).toBe('KEDAI');
    expect(mendFromAddress('STORES', 'www.istores.com')).toBe('STORES');
    expect(mendFromAddress('MIDVALE CAFE', 'www.midvalley.com.my')).toBe('MIDVALE CAFE');
  });

  it('mends the merchant of a receipt from the address at its foot', () => {
    const r = extractReceiptFields([page(['HARBCUR BAKERIES', '12 JALAN MERAH', 'TOTAL   12.00', 'Visit www.harbourbakeries.com.my'], { source: 'ocr' })]);
    expect(r.merchantName).toBe('HARBOUR BAKERIES');
  });
});
