import { describe, expect, it } from 'vitest';
import { mendFromAddress } from '../../../src/extraction/fields/merchant-address.ts';
import { extractReceiptFields } from '../../../src/extraction/fields/receipt.ts';
import { page } from './helpers.ts';

describe('merchant name mended from its web or e-mail address', () => {
  it('puts back one letter OCR misread, lost or added, in the case of the name', () => {
    expect(mendFromAddress('LANTERH PRINTWORKS', 'For feedback, email to lanternprintworksetog.com.mu')).toBe('LANTERN PRINTWORKS');
    expect(mendFromAddress('LANTRN PRINTWORKS SDN BHD', 'www.lanternprintworks.com.my')).toBe('LANTERN PRINTWORKS SDN BHD');
    expect(mendFromAddress('LANTTERN PRINTWORKS', 'www.lanternprintworks.com.my')).toBe('LANTERN PRINTWORKS');
    expect(mendFromAddress('Sunrlse Cafe', 'sunrisecafe@gmail.com')).toBe('Sunrise Cafe');
  });

  it('reads the address without the legal form before a quoted name, and leaves accents the address cannot spell', () => {
    expect(mendFromAddress('SIA "SAULAINI DĀRZI"', 'www.saulainudarzi.lv')).toBe('SIA "SAULAINU DĀRZI"');
    expect(mendFromAddress('SIA "SAULAINU DĀRZI"', 'www.saulainudarzi.lv')).toBe('SIA "SAULAINU DĀRZI"');
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
