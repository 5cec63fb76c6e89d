// Receipt rules on PP-OCR text (issue 15): totals chosen jointly (sums, rounding, cash − change, column headers),
// labels OCR split apart, dates glued to their time, and the merchant as the legal entity of the header block.
// Shop names and amounts here are invented.
import { describe, expect, it } from 'vitest';
import { documentLines } from '../../../src/extraction/fields/layout.ts';
import { cleanMerchant } from '../../../src/extraction/fields/receipt-merchant.ts';
import { chooseReceiptTotals } from '../../../src/extraction/fields/receipt-totals.ts';
import { extractReceiptFields } from '../../../src/extraction/fields/receipt.ts';
import { page } from './helpers.ts';

const ocr = (lines: string[]) => [page(lines, { source: 'ocr' })];
const totals = (lines: string[]) => chooseReceiptTotals(documentLines(ocr(lines)), '.');

describe('receipt totals, chosen jointly', () => {
  it('takes the amount after the rounding line that cash − change confirms', () => {
    const t = totals([
      'HARDWARE CO',
      'NAILS 2 @3.11   6.22',
      'BOLTS 1   10.09',
      'Total:   7   16.31',
      'Rounding Adj:   -0.01',
      'Balance Due:   16.30',
      'Payment (Cash):   17.00',
      'Change(Cash):   0.70',
    ]);
    expect(t.total?.value).toBe(16.3);
  });

  it('keeps the printed total when only the cash paid shows the rounding', () => {
    const t = totals([
      'BOOK SHOP',
      'PEN   4.99',
      'PAPER   7.38',
      'Total   RM   12.37',
      'Rounding Adjustment   RM   -0.02',
      'Tendered CASH   RM   50.00',
      'Change   RM   37.65',
    ]);
    expect(t.total?.value).toBe(12.37);
  });

  it('reads labels OCR split into letters ("Net T o ta l", "CHA NGE")', () => {
    const t = totals(['BAKERY', '4 PASTRY @9.00   36.00', '2 BUNS @24.60   49.20', 'Net T o ta l   85.20', 'Casn   100.20', 'CHA NGE   15.00']);
    expect(t.total?.value).toBe(85.2);
  });

  it("does not read a table header's TOTAL column as the total", () => {
    const t = totals([
      'CAFE DU PORT',
      'DESIGNATION   P.U.   QTE   TOTAL',
      'CAFE CREME   12.00   2   24.00',
      'THE VERT   10.00   2   20.00',
      'Tota l Facture :   44.00',
    ]);
    expect(t.total?.value).toBe(44);
  });

  it('checks subtotal − discount + tax against the total', () => {
    const t = totals(['DELI', 'SANDWICH   20.00', 'SOUP   10.00', 'Subtotal   30.00', 'Discount   -3.00', 'Tax 8%   2.16', 'Total   29.16', 'Total Qty   2']);
    expect(t.total?.value).toBe(29.16);
    expect(t.sumOk).toBe(true);
  });

  it('reads a rounding line whose minus sign OCR lost, and a total label misread ("Total RA")', () => {
    const t = totals([
      'PEN SHOP',
      'PEN   4.99',
      'PAPER   7.38',
      'Total RA   12.37',
      'Rounding Adjustments RM   0.02',
      'Tendered-CASH RM   50.00',
      'Change RM   37.65',
    ]);
    expect(t.total?.value).toBe(12.37);
  });

  it('does not let a change amount OCR cut short ("32.5") outvote a printed sum', () => {
    const t = totals(['TEA HOUSE', '8 SUB T01AL   64.00', 'GST 6%   3.84', 'ROUNDING ADJ   0.01', '67.85', 'NET TOTAL', 'Cash   100.00', 'CHANGE   32.5']);
    expect(t.total?.value).toBe(67.85);
  });

  it('takes "Due" with pay − change agreeing', () => {
    const t = totals(['BAKE HOUSE', 'SCONE   1   7.50', 'Qty   1   7.50', 'Due   7.50', 'Pay   20.00', 'Change   12.50']);
    expect(t.total?.value).toBe(7.5);
  });
});

describe('receipt dates and merchant on OCR text', () => {
  it('reads a date glued to its time and a month name with a zero for O', () => {
    expect(extractReceiptFields(ocr(['SHOP', '19/03/20181:01:43 PM', 'TOTAL   5.00'])).receiptDate).toBe('2018-03-19');
    expect(extractReceiptFields(ocr(['SHOP', 'Date:   0ct 3,2016 12:16:25 PM', 'TOTAL   5.00'])).receiptDate).toBe('2016-10-03');
    // A month name, and a time that lost its first colon too.
    expect(extractReceiptFields(ocr(['SHOP', 'CB#:12345678 14/Mar/20190915:20', 'TOTAL   5.00'])).receiptDate).toBe('2019-03-14');
    // Slashes read as 1 or 7 or lost, right after a date label; a bare run of digits elsewhere is no date.
    expect(extractReceiptFields(ocr(['SHOP', 'RECEIPT #: CS0012 DATE: 140372019', 'TOTAL   5.00'])).receiptDate).toBe('2019-03-14');
    expect(extractReceiptFields(ocr(['SHOP', 'DATE: 0971112018', 'TOTAL   5.00'])).receiptDate).toBe('2018-11-09');
    expect(extractReceiptFields(ocr(['SHOP', 'REF 140372019', 'TOTAL   5.00'])).receiptDate).toBeNull();
  });

  it('cleans registration numbers and lost spaces from a legal name', () => {
    expect(cleanMerchant('Broadview Trading 5dn Bhd(728384-M)')).toBe('Broadview Trading Sdn Bhd');
    expect(cleanMerchant('BOON PAPERSDN BHD(1248717-W)')).toBe('BOON PAPER SDN BHD');
    expect(cleanMerchant('KEDAI MAJU SDN. BHD. (779763-K)')).toBe('KEDAI MAJU SDN. BHD.');
    // A closing legal form whose D was read as O; a B read as "13" beside "&".
    expect(cleanMerchant('SIA "A.B.C. LTO')).toBe('SIA "A.B.C. LTD');
    expect(cleanMerchant('Harbour Foods Lto')).toBe('Harbour Foods Ltd');
    expect(cleanMerchant('PLUTO TRADING')).toBe('PLUTO TRADING');
    expect(cleanMerchant('13 & K BAKERY')).toBe('B & K BAKERY');
  });

  it('takes the legal entity over a document title and a brand line', () => {
    const r = extractReceiptFields(ocr(['TAX INVOICE', 'veikals "DARZS"', 'SIA "ZALE"', 'Brivibas iela 1, Riga', 'KOPA EUR   3.20']));
    expect(r.merchantName).toBe('SIA "ZALE"');
  });
});
