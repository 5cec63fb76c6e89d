// Receipt line items on OCR text: names on their own line above or below the numbers, quantity × unit price, product
// codes, adjustments skipped, items ending at the subtotal. Shops, goods and amounts are invented.
import { describe, expect, it } from 'vitest';
import { extractReceiptFields } from '../../../src/extraction/fields/receipt.ts';
import { page } from './helpers.ts';

const items = (lines: string[]) =>
  extractReceiptFields([page(lines, { source: 'ocr' })]).lineItems.map((i) => [i.description, i.sku, i.quantity, i.unitPrice, i.total]);

describe('receipt line items', () => {
  it('pairs a line of code, quantity, price and amount with the name printed below it', () => {
    expect(
      items([
        'HARBOUR SUPPLIES SDN BHD',
        'NO 1, JALAN MAWAR',
        'TAX INVOICE',
        'ITEM QTY U/P AMOUNT',
        '880101 2 7.50 15.00 SR',
        'NITRILE GLOVES BOX 100',
        '880102 1 4.20 4.20 SR',
        'HAND SOAP REFILL',
        'SUB-TOTAL 19.20',
        'DISC 0.00',
        'TOTAL 19.20',
      ]),
    ).toEqual([
      ['NITRILE GLOVES BOX 100', '880101', 2, 7.5, 15],
      ['HAND SOAP REFILL', '880102', 1, 4.2, 4.2],
    ]);
  });

  it('pairs the name printed above its numbers, and stops at a subtotal OCR split apart', () => {
    expect(
      items([
        'GREEN LEAF PHARMACY',
        'LOT 5 JALAN 2',
        'Qty Code&Desc Price Total',
        'VITAMIN C 500MG 30S',
        '1 556677 24.90 24.90 SR',
        'COTTON BUDS 200S',
        '3 556678 2.10 6.30 SR',
        'SubT otal: 31.20',
        'Total Inclusive GST: 31.20',
      ]),
    ).toEqual([
      ['VITAMIN C 500MG 30S', '556677', 1, 24.9, 24.9],
      ['COTTON BUDS 200S', '556678', 3, 2.1, 6.3],
    ]);
  });

  it('reads quantity × price, a quantity line above the name and amount, and a count before the name; skips discounts', () => {
    expect(
      items([
        'SIA "LAPSAS"',
        'Kalna iela 3, Riga',
        'PVN LV40001234567',
        'Wood glue 250ml 2 x 3.15',
        '6.30 A',
        '4.000 X 0.05',
        'Screw 4x40 0.20 A',
        'Atlaide(10%) -0.02',
        '2 Paint brush 1.75 3.50 A',
        'KOPA EUR 9.98',
      ]),
    ).toEqual([
      ['Wood glue 250ml', null, 2, 3.15, 6.3],
      ['Screw 4x40', null, 4, 0.05, 0.2],
      ['Paint brush', null, 2, 1.75, 3.5],
    ]);
  });
});
