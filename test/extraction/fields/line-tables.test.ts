import { describe, expect, it } from 'vitest';
import { extractInvoiceFields } from '../../../src/extraction/fields/invoice.ts';
import { page } from './helpers.ts';

const rows = (lines: (string | [string, number])[]) => extractInvoiceFields([page(lines)])[0]!.lineItems;

describe('line tables by geometry', () => {
  it('reads an amount under its own header when a discount header is set close before it', () => {
    const items = rows(['Becker Service GmbH', 'Rechnung Nr. 22-0875', '',
      'Text                       Anz.   Stückpreis Nachlass Gesamtpreis',
      'Wartung Kühlzelle          1      148,32              148,32',
      'Anfahrtspauschale          1      55,95      20 %     44,76', '',
      ['Netto   193,08', 300], ['Gesamtsumme   229,77', 300]]);
    expect(items.map((l) => [l.description, l.quantity, l.unitPrice, l.total])).toEqual([
      ['Wartung Kühlzelle', 1, 148.32, 148.32],
      ['Anfahrtspauschale', 1, 55.95, 44.76],
    ]);
  });

  it('takes the first of two columns with the same name for codes and the last for names', () => {
    const items = rows(['Terra Verde S.a.s.', 'Fattura F2020', '',
      'Articolo   Articolo                      Qtà   P.U.    Totale',
      '80902      Spedizione bancale zona 2     15    53,64   804,60',
      'ART-9910   Coltello da cuoco 20 cm       2     44,98   89,96', '',
      ['Totale   894,56', 300]]);
    expect(items.map((l) => [l.sku, l.description, l.total])).toEqual([
      ['80902', 'Spedizione bancale zona 2', 804.6],
      ['ART-9910', 'Coltello da cuoco 20 cm', 89.96],
    ]);
  });

  it('keeps a dated detail line under an item in its description, but never names an item with one', () => {
    const items = rows(['Summit Services LLC', 'Invoice No. 4411', '',
      'Description                      Qty   Price    Amount',
      'Table linen laundering           17    2.99     50.83',
      'Billing period May 21, 2026 to Jun 19, 2026.',
      'Dish rack                        1     12.00    12.00', '',
      ['Subtotal   62.83', 300], ['Total   62.83', 300]]);
    expect(items.map((l) => l.description)).toEqual(['Table linen laundering Billing period May 21, 2026 to Jun 19, 2026.', 'Dish rack']);
  });
});
