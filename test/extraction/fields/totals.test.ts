// Net, tax and total chosen together: which printed amounts are the invoice's (not a VAT breakdown row, not the
// base a rate is taken on), read under labels set side by side, and the tax of several rates added up.
import { describe, expect, it } from 'vitest';
import { extractInvoiceFields } from '../../../src/extraction/fields/invoice.ts';
import { splitInvoicePages } from '../../../src/extraction/fields/split.ts';
import { page } from './helpers.ts';

const head = ['Ortega e Hijos S.L.', 'Calle Mayor 5, 28013 Madrid', '', 'FACTURA', 'Núm. factura   FT 2020/4110', ''];
const amounts = (lines: (string | [string, number])[]) => {
  const [f] = extractInvoiceFields([page(lines)]);
  return [f!.subtotal, f!.tax, f!.total];
};
const row = (cells: [string, number][]) => cells.reduce((s, [t, col]) => s.padEnd(col) + t, '');

describe('invoice amounts', () => {
  it('takes the totals box, not the first row of a VAT breakdown beside it', () => {
    expect(
      amounts([
        ...head,
        row([
          ['IVA', 0],
          ['Base imp.', 8],
          ['Cuota', 22],
          ['Total', 32],
          ['Subtotal', 50],
          ['1.092,88', 64],
        ]),
        row([
          ['21 %', 0],
          ['119,25', 8],
          ['25,04', 22],
          ['144,29', 32],
          ['IVA total', 50],
          ['122,40', 64],
        ]),
        row([
          ['10 %', 0],
          ['973,63', 8],
          ['97,36', 22],
          ['1.070,99', 32],
          ['Importe total', 50],
          ['1.215,28 €', 64],
        ]),
      ]),
    ).toEqual([1092.88, 122.4, 1215.28]);
  });

  it('reads the total row of a VAT breakdown under its column labels, past the rows of each rate', () => {
    expect(
      amounts([
        'Gastro Handel GmbH',
        'Marktplatz 1, 80331 München',
        '',
        'Rechnung Nr. 2024-18',
        '',
        'Weizenmehl Type 550, 25 kg   14,95 B',
        'Summe brutto   89,48€',
        row([
          ['MwSt', 0],
          ['Nettobetrag', 12],
          ['MwSt.', 26],
          ['Brutto', 36],
        ]),
        row([
          ['A 19 %', 0],
          ['10,50', 12],
          ['2,00', 26],
          ['12,50', 36],
        ]),
        row([
          ['B 7 %', 0],
          ['71,94', 12],
          ['5,04', 26],
          ['76,98', 36],
        ]),
        row([
          ['Summe brutto', 0],
          ['82,44', 12],
          ['7,04', 26],
          ['89,48', 36],
        ]),
        'Girocard   89,48€',
      ]),
    ).toEqual([82.44, 7.04, 89.48]);
  });

  it('reads a totals row set out under its labels, even when a label holds a column word', () => {
    expect(
      amounts([
        'Martins & Filhos S.A.',
        'Rua Augusta 5, 1100-053 Lisboa',
        '',
        'Fatura n.º 2020-776',
        '',
        row([
          ['Total dos artigos', 0],
          ['Base tributável', 20],
          ['IVA 23 %', 38],
          ['Valor total', 50],
        ]),
        row([
          ['1 377,54', 0],
          ['EUR 1 377,54', 20],
          ['316,83', 38],
          ['EUR 1 694,37', 50],
        ]),
      ]),
    ).toEqual([1377.54, 316.83, 1694.37]);
  });

  it('gives each value under a row of labels to the label nearest to it, and derives the net', () => {
    expect(
      amounts([
        'Murphy & Fletcher Ltd.',
        '12 Quay Street, Leeds LS1 4AP',
        '',
        'Invoice No. FS 2024/3449',
        '',
        '1 pack x 17.00   17.00 A',
        '',
        'Balance Due   £217.39',
        row([
          ['VAT', 0],
          ['Goods', 10],
          ['VAT Amount', 20],
          ['Gross', 32],
        ]),
        row([
          ['A 20%', 0],
          ['181.16', 10],
          ['36.23', 20],
          ['217.39', 32],
        ]),
        'Cash tendered   250.00',
        'Change   32.61',
      ]),
    ).toEqual([181.16, 36.23, 217.39]);
  });

  it('never takes the base a rate is taken on as the tax, and adds the taxes of two rates set side by side', () => {
    expect(
      amounts([
        'Gallo Alimentari S.r.l.',
        'Via Roma 1, 20121 Milano',
        '',
        'Fattura n. 12',
        '',
        ['Imponibile totale   1.590,72€', 300],
        ['IVA 22 % su 1.590,72   349,96', 300],
        ['Totale   1.940,68€', 300],
      ]),
    ).toEqual([1590.72, 349.96, 1940.68]);
    expect(
      amounts([
        'Informatique Dubois SARL',
        '3 rue Jaurès, 69001 Lyon',
        '',
        'Facture N° 2022-11',
        '',
        row([
          ['Total hors taxes', 0],
          ['TVA 20 %', 20],
          ['TVA 10 %', 32],
          ['Total TTC', 44],
        ]),
        row([
          ['1.183,89 €', 0],
          ['4,28', 20],
          ['116,25', 32],
          ['1.304,42 €', 44],
        ]),
      ]),
    ).toEqual([1183.89, 120.53, 1304.42]);
  });

  it('keeps two pages together when one reads a registration number as the invoice number but prints the other', () => {
    const p1 = page(['Nº Documento 2025-139', 'NIPC 380518661'], { page: 1 });
    const p2 = page(['FATURA 2025-139 (cont.)'], { page: 2 });
    const numbers: Record<number, string> = { 1: '380518661', 2: '2025-139' };
    expect(splitInvoicePages([p1, p2], (p) => ({ vendor: null, number: numbers[p.page]! })).length).toBe(1);
    const p3 = page(['Invoice 77-001'], { page: 3 });
    expect(splitInvoicePages([p2, p3], (p) => ({ vendor: null, number: p.page === 2 ? '2025-139' : '77-001' })).length).toBe(2);
  });
});
