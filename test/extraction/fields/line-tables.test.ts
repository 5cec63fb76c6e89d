import { describe, expect, it } from 'vitest';
import { extractInvoiceFields } from '../../../src/extraction/fields/invoice.ts';
import { page } from './helpers.ts';

const rows = (lines: (string | [string, number])[]) => extractInvoiceFields([page(lines)])[0]!.lineItems;

describe('line tables by geometry', () => {
  it('reads an amount under its own header when a discount header is set close before it', () => {
    const items = rows([
      'Becker Service GmbH',
      'Rechnung Nr. 22-0875',
      '',
      'Text                       Anz.   Stückpreis Nachlass Gesamtpreis',
      'Wartung Kühlzelle          1      148,32              148,32',
      'Anfahrtspauschale          1      55,95      20 %     44,76',
      '',
      ['Netto   193,08', 300],
      ['Gesamtsumme   229,77', 300],
    ]);
    expect(items.map((l) => [l.description, l.quantity, l.unitPrice, l.total])).toEqual([
      ['Wartung Kühlzelle', 1, 148.32, 148.32],
      ['Anfahrtspauschale', 1, 55.95, 44.76],
    ]);
  });

  it('takes the first of two columns with the same name for codes and the last for names', () => {
    const items = rows([
      'Terra Verde S.a.s.',
      'Fattura F2020',
      '',
      'Articolo   Articolo                      Qtà   P.U.    Totale',
      '80902      Spedizione bancale zona 2     15    53,64   804,60',
      'ART-9910   Coltello da cuoco 20 cm       2     44,98   89,96',
      '',
      ['Totale   894,56', 300],
    ]);
    expect(items.map((l) => [l.sku, l.description, l.total])).toEqual([
      ['80902', 'Spedizione bancale zona 2', 804.6],
      ['ART-9910', 'Coltello da cuoco 20 cm', 89.96],
    ]);
  });

  it('keeps a dated detail line under an item in its description, but never names an item with one', () => {
    const items = rows([
      'Summit Services LLC',
      'Invoice No. 4411',
      '',
      'Description                      Qty   Price    Amount',
      'Table linen laundering           17    2.99     50.83',
      'Billing period May 21, 2026 to Jun 19, 2026.',
      'Dish rack                        1     12.00    12.00',
      '',
      ['Subtotal   62.83', 300],
      ['Total   62.83', 300],
    ]);
    expect(items.map((l) => l.description)).toEqual(['Table linen laundering Billing period May 21, 2026 to Jun 19, 2026.', 'Dish rack']);
  });
});

describe('tables over several pages', () => {
  it('goes on after "to carry forward", past a footer that names the VAT id beside long ids', () => {
    const first = page([
      'Harbour Supplies Ltd',
      'Invoice No. 7781',
      '',
      'Description                      Qty   Price    Amount',
      'Dish rack                        2     12.00    24.00',
      'Table linen laundering           10    2.50     25.00',
      ['Carried forward   49.00', 300],
      '',
      'Harbour Supplies Ltd · VAT IE1234567T · GLN 5412345678908',
    ]);
    const second = page(
      [
        'Harbour Supplies Ltd   Invoice 7781 (continued)',
        'Description                      Qty   Price    Amount',
        ['Brought forward   49.00', 300],
        'Paper napkins, 3000 ct           1     31.00    31.00',
        '',
        ['Total   80.00', 300],
      ],
      { page: 2 },
    );
    const items = extractInvoiceFields([first, second])[0]!.lineItems;
    expect(items.map((l) => [l.description, l.total])).toEqual([
      ['Dish rack', 24],
      ['Table linen laundering', 25],
      ['Paper napkins, 3000 ct', 31],
    ]);
  });
});

describe('header-less till lines', () => {
  it('reads "name   amount", a name over "qty unit x price   amount" (OCR may glue the x), and "2 x name   amount"', () => {
    const items = rows([
      'Doyle Beverages',
      'VAT Invoice',
      'Invoice Ref. T009068',
      'Invoice Date 08/10/2019   09:59',
      '------------------',
      'Atlantic salmon fillet',
      '  1.519 lb x 17.50   26.58 A',
      'Extra virgin olive oil 5 l   52.90 A',
      '2 x Espresso   5.00',
      'Sparkling water 24 x 0.5 l',
      '  3 case x11.00   33.00 A',
      '------------------',
      'Invoice Total   117.48',
      'Card   117.48',
    ]);
    expect(items.map((l) => [l.description, l.quantity, l.unitPrice, l.total])).toEqual([
      ['Atlantic salmon fillet', 1.519, 17.5, 26.58],
      ['Extra virgin olive oil 5 l', 1, 52.9, 52.9],
      ['Espresso', 2, 2.5, 5],
      ['Sparkling water 24 x 0.5 l', 3, 11, 33],
    ]);
  });

  it('reads "name qty @ price   amount" with German numbers', () => {
    const items = rows(['Becker Feinkost OHG', 'Beleg', 'Re.-Nr.: 1/00136', 'Bergkäse 0,512 @ 14,99   7,67 B', 'Brezel   1,20 B', 'Summe   8,87 €']);
    expect(items.map((l) => [l.description, l.quantity, l.unitPrice, l.total])).toEqual([
      ['Bergkäse', 0.512, 14.99, 7.67],
      ['Brezel', 1, 1.2, 1.2],
    ]);
  });

  it('reads nothing when the lines above the totals do not add up to an amount printed below them', () => {
    const items = rows(['Summit Services LLC', 'Invoice No. 4411', 'Consulting, March   1,200.00', 'Travel   310.00', 'Total   1,400.00']);
    expect(items).toEqual([]);
  });
});

describe('rows that are not priced items', () => {
  it('keeps a discount row in the description column as a negative line, not the document discount under the sub-total', () => {
    const items = rows([
      'Turner Beverages',
      'Tax Invoice No. FA 2023/2995',
      '',
      'Item Description                    QTY   Rate     Ext. Price',
      'Lager, 30 l keg                     10    90.00    900.00',
      'Trade Discount                                     -90.00',
      '',
      ['Total Goods   810.00', 300],
      ['Discount   -10.00', 300],
      ['Total Net   800.00', 300],
      ['Grand Total   984.00', 300],
    ]);
    expect(items.map((l) => [l.description, l.quantity, l.total])).toEqual([
      ['Lager, 30 l keg', 10, 900],
      ['Trade Discount', null, -90],
    ]);
  });

  it('continues a description with "Label: value" reference lines under it', () => {
    const items = rows([
      'Summit Services LLC',
      'Invoice No. 4411',
      '',
      'Description                      Qty   Price    Amount',
      'Replacement compressor           1     499.00   499.00',
      'Service level: next business day, 08:00-18:00.',
      '',
      ['Total   499.00', 300],
    ]);
    expect(items.map((l) => l.description)).toEqual(['Replacement compressor Service level: next business day, 08:00-18:00.']);
  });
});

describe('text inside the description column', () => {
  it('does not end the table on a detail line made of column words ("Stück, Preis je Einheit.")', () => {
    const items = rows([
      'Großhandel Schmidt AG',
      'Rechnung Nr. 2019-708',
      '',
      'Bezeichnung                 Stück   Einheit   Stückpreis   Betrag',
      'Kassensoftware Lizenz       8       Stück     230,90       1.847,20',
      'Verpackungseinheit 6',
      'Stück, Preis je Einheit.',
      'IT-Betreuung Pauschale      1       Mon.      185,95       185,95',
      '',
      ['Gesamtbetrag   2.033,15', 300],
    ]);
    expect(items.map((l) => [l.description, l.total])).toEqual([
      ['Kassensoftware Lizenz Verpackungseinheit 6 Stück, Preis je Einheit.', 1847.2],
      ['IT-Betreuung Pauschale', 185.95],
    ]);
  });
});

describe('the end of the table', () => {
  it('reads no rate as a quantity, skips a carried-forward sum in any words, and stops at a row of totals labels', () => {
    const items = rows([
      'Bebidas Alicante S.L.U.',
      'Factura FT 2020/9309',
      '',
      'Detalle                          Cantidad   Precio   Importe',
      'Licencia TPV                     2          80,00    160,00',
      'Instalación red wifi             1          40,00    40,00',
      'Anterior                                             200,00',
      'Mantenimiento mensual            1          10,00    10,00',
      '',
      ['IVA 21 %   44,10', 300],
      ['Base imponible   IVA 21 %   Total', 200],
      ['210,00   44,10   254,10', 200],
    ]);
    expect(items.map((l) => [l.description, l.total])).toEqual([
      ['Licencia TPV', 160],
      ['Instalación red wifi', 40],
      ['Mantenimiento mensual', 10],
    ]);
  });
});

describe('continuation fragments', () => {
  it('appends a short fragment under a row ("24 x 0.5 l") to its description', () => {
    const items = rows([
      'Turner Beverages',
      'Invoice No. 77',
      '',
      'Item      Product / Service          Units   Price    Line Total',
      'E-748     Sparkling mineral water    12      8.00     96.00',
      '          24 x 0.5 l',
      'K-796     Toner cartridge, black     10      68.95    689.50',
      '',
      ['Total   785.50', 300],
    ]);
    expect(items.map((l) => l.description)).toEqual(['Sparkling mineral water 24 x 0.5 l', 'Toner cartridge, black']);
  });
});

describe('rows without a column layout', () => {
  it('reads "[pos] name   qty   price   amount" when quantity × price is the amount, whichever comes first', () => {
    const [f] = extractInvoiceFields([
      page([
        'Elektro Schulz GmbH',
        'Hauptstr. 1, 12345 Berlin',
        '',
        'Rechnung Nr. RE-118 vom 05.03.2024',
        '',
        '1   Kabel NYM 3x1,5   2   50,00   100,00',
        '2   Abzweigdose   12,50   4   50,00',
        '',
        ['Zwischensumme   150,00', 300],
        ['MwSt. 19%   28,50', 300],
        ['Gesamtbetrag   178,50', 300],
      ]),
    ]);
    expect(f!.lineItems.map((l) => [l.description, l.quantity, l.unitPrice, l.total])).toEqual([
      ['Kabel NYM 3x1,5', 2, 50, 100],
      ['Abzweigdose', 4, 12.5, 50],
    ]);
  });
});
