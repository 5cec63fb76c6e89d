// A plain rendering of e-invoice data: "Label: value" sections, totals as "label | net/gross | amount" rows and
// every item a block of labelled rows. Invented parties and values.
import { describe, expect, it } from 'vitest';
import { extractInvoiceFields } from '../../../src/extraction/fields/invoice.ts';
import { page } from './helpers.ts';

const head = [
  'Übersicht',
  '',
  'Informationen zum Käufer',
  'Name:   Gasthof Linde',
  'Ort:   12345 Beispielstadt',
  '',
  'Informationen zum Verkäufer',
  'Firmenname:   Kessler Kühltechnik GmbH',
  'Adresszeile 1:   Am Bahnhof 3',
  'Umsatzsteuer-ID:   DE123456789',
  '',
  'Rechnungsdaten',
  'Rechnungsnummer:   RK-4471',
  'Rechnungsdatum:   12.03.2024',
  'Währung:   EUR',
  '',
  'Gesamtbeträge der Rechnung',
  'Summe aller Positionen   netto   1.250,00',
  'Gesamtsumme   netto   1.250,00',
  'Summe Umsatzsteuer   237,50',
  'Gesamtsumme   brutto   1.487,50',
  'Fälliger Betrag   brutto   1.487,50',
  '',
  'Details',
];

describe('data sheets', () => {
  it('reads items printed as blocks, names after their numbers, and totals qualified net / gross', () => {
    const [inv] = extractInvoiceFields([
      page([
        ...head,
        'Wartung Kühlzelle',
        'Preiseinzelheiten',
        'Menge   2',
        'Einheit   Stück',
        'Preis pro Einheit (netto)   500,00',
        'Gesamtpreis (netto)   1.000,00',
        'Artikelinformationen',
        'Bezeichnung:   Wartung Kühlzelle',
        'Artikelnummer:   W-100',
        'Position 2',
        'Preiseinzelheiten',
        'Menge   5',
        'Einheit   h',
        'Preis pro Einheit (netto)   50,00',
        'Gesamtpreis (netto)   250,00',
        'Artikelinformationen',
        'Bezeichnung:   Montage vor Ort',
        'Artikelnummer:   M-7',
      ]),
    ]);
    expect([inv!.vendorName, inv!.invoiceNumber, inv!.subtotal, inv!.tax, inv!.total]).toEqual(['Kessler Kühltechnik GmbH', 'RK-4471', 1250, 237.5, 1487.5]);
    expect(inv!.lineItems.map((l) => [l.description, l.quantity, l.unitPrice, l.total])).toEqual([
      ['Wartung Kühlzelle', 2, 500, 1000],
      ['Montage vor Ort', 5, 50, 250],
    ]);
  });

  it('takes a name from the heading when no row names the item, and no blocks that do not add up', () => {
    const item = (name: string, q: string, p: string, a: string) => [
      name,
      'Price details',
      `Quantity   ${q}`,
      `Price per unit (net)   ${p}`,
      `Total price (net)   ${a}`,
    ];
    const doc = (total: string) =>
      extractInvoiceFields([
        page([
          'Invoice overview',
          'Invoice number:   A-17',
          'Invoice date:   2024-03-12',
          `Sum of all invoice lines   net   ${total}`,
          'Details',
          ...item('Chef knife 21 cm', '2', '40.00', '80.00'),
          ...item('Cutting board', '3', '10.00', '30.00'),
        ]),
      ])[0]!;
    expect(doc('110.00').lineItems.map((l) => [l.description, l.quantity, l.total])).toEqual([
      ['Chef knife 21 cm', 2, 80],
      ['Cutting board', 3, 30],
    ]);
    expect(doc('999.00').lineItems.length).toBe(0);
  });
});
