import { describe, expect, it } from 'vitest';
import { categorizeLineItem } from '../../../src/extraction/categories.ts';
import { extractInvoiceFields } from '../../../src/extraction/fields/invoice.ts';
import { extractReceiptFields } from '../../../src/extraction/fields/receipt.ts';
import { taxCategoryForReceipt } from '../../../src/extraction/tax-categories.ts';
import { page } from './helpers.ts';

const invoice = (vendor: string, number: string, n = 1) =>
  page(
    [
      `${vendor}`,
      'Hauptstraße 5, 10115 Berlin',
      'www.example.de',
      '',
      'Rechnung an:',
      'Kunde Muster AG',
      'Musterweg 1, 60325 Frankfurt',
      '',
      [`Rechnungsnummer:   ${number}`, 300],
      ['Rechnungsdatum:   05.03.2024', 300],
      ['Fällig am:   04.04.2024', 300],
      '',
      'Pos   Beschreibung                 Menge   Einzelpreis   Betrag',
      '1     Tomaten                      10      2,00          20,00',
      '2     Rotwein Merlot               2       15,00         30,00',
      '',
      ['Zwischensumme   50,00', 300],
      ['MwSt. 19%   9,50', 300],
      ['Gesamtbetrag   59,50 EUR', 300],
      ['Anzahlung   -20,00', 300],
      ['Zu zahlen   39,50', 300],
    ],
    { page: n },
  );

describe('line-item tables', () => {
  it('continue on the next page under a repeated header, and read an "Item" column beside "Description" as SKUs', () => {
    const head = 'Item      Description              Qty     Unit Price     Amount';
    const p1 = page(
      [
        'Fresh Farms Inc',
        'Invoice No: FF-1',
        'Invoice date: 2024-02-01',
        '',
        head,
        'FF-10     Baby spinach             2       10.00          20.00',
        'FF-11     Red onions               1       5.50           5.50',
      ],
      { page: 1 },
    );
    const p2 = page(
      [
        'Fresh Farms Inc',
        'Invoice No: FF-1 (continued)',
        '',
        head,
        'FF-12     Lemons                   3       2.00           6.00',
        '',
        ['Subtotal   31.50', 300],
        ['Tax   0.00', 300],
        ['Total   31.50', 300],
      ],
      { page: 2 },
    );
    const [inv] = extractInvoiceFields([p1, p2]);
    expect(inv!.lineItems.map((l) => [l.sku, l.description, l.total])).toEqual([
      ['FF-10', 'Baby spinach', 20],
      ['FF-11', 'Red onions', 5.5],
      ['FF-12', 'Lemons', 6],
    ]);
    expect(inv!.total).toBe(31.5);
  });
});

describe('line-item tables with header words set close together', () => {
  it('gives each number column its own range', () => {
    const p = page(
      [
        'Distribuciones Levante S.L.',
        'Factura nº 7',
        '',
        'Artículo                 Cantidad Precio Total',
        'Aceite de oliva 5L       10       30,00  300,00',
        'Vino tinto crianza       20       10,00  200,00',
        '',
        ['Base imponible   500,00', 300],
        ['IVA 21%   105,00', 300],
        ['Total factura   605,00', 300],
      ],
      { charW: 6 },
    );
    const [inv] = extractInvoiceFields([p]);
    expect(inv!.lineItems.map((l) => [l.description, l.quantity, l.unitPrice, l.total])).toEqual([
      ['Aceite de oliva 5L', 10, 30, 300],
      ['Vino tinto crianza', 20, 10, 200],
    ]);
  });
});

describe('extractInvoiceFields', () => {
  it('reads header fields, line items and the gross total (not the amount due)', () => {
    const [inv] = extractInvoiceFields([invoice('Gemüse Schmidt GmbH', 'RE-2024-001')]);
    expect(inv).toMatchObject({
      vendorName: 'Gemüse Schmidt GmbH',
      invoiceNumber: 'RE-2024-001',
      invoiceDate: '2024-03-05',
      dueDate: '2024-04-04',
      subtotal: 50,
      tax: 9.5,
      total: 59.5,
      currency: 'EUR',
      pages: [1],
    });
    expect(inv!.lineItems.map((l) => [l.description, l.quantity, l.unitPrice, l.total])).toEqual([
      ['Tomaten', 10, 2, 20],
      ['Rotwein Merlot', 2, 15, 30],
    ]);
    expect(inv!.confidence).toBeGreaterThan(50);
    expect(inv!.fieldConfidences.total).toBeGreaterThan(inv!.fieldConfidences.dueDate! - 100);
  });

  it('uses subtotal + tax ≈ total to choose between total candidates', () => {
    const p = page(['ACME Ltd', 'Invoice No: 77', 'Invoice date: 2024-01-02', 'Subtotal   100.00', 'VAT 20%   20.00', 'Total   150.00', 'Total   120.00']);
    const [inv] = extractInvoiceFields([p]);
    expect(inv!.total).toBe(120);
    expect(inv!.fieldConfidences.total).toBeGreaterThan(60);
  });

  it('splits a PDF whose pages belong to two vendors', () => {
    const out = extractInvoiceFields([invoice('Gemüse Schmidt GmbH', 'A-1', 1), invoice('Weinhandel Krause KG', 'B-7', 2)]);
    expect(out.map((i) => [i.vendorName, i.invoiceNumber, i.pages])).toEqual([
      ['Gemüse Schmidt GmbH', 'A-1', [1]],
      ['Weinhandel Krause KG', 'B-7', [2]],
    ]);
  });

  it('keeps continuation pages of the same invoice together', () => {
    const p2 = page(['Seite 2', 'Pos   Beschreibung   Menge   Betrag', '3   Brot   1   4,00'], { page: 2 });
    expect(extractInvoiceFields([invoice('Gemüse Schmidt GmbH', 'A-1', 1), p2]).map((i) => i.pages)).toEqual([[1, 2]]);
  });
});

describe('OCR slips in German', () => {
  const lines = ['GroBmarkt StrauB GmbH', 'Hafenstraße 4, 20457 Hamburg', 'Rechnung Nr. 2024-118', 'Rechnungsdatum: 05.06.2024', 'Gesamtbetrag   59,50 EUR'];
  it('reads ß where OCR read B after a small letter, on scanned German pages only', () => {
    expect(extractInvoiceFields([page(lines, { source: 'ocr' })])[0]!.vendorName).toBe('Großmarkt Strauß GmbH');
    expect(extractInvoiceFields([page(lines)])[0]!.vendorName).toBe('GroBmarkt StrauB GmbH');
    const english = ['WebBuilders Ltd', '4 Harbour Road, Leeds', 'Invoice No. 2024-118', 'Invoice date: 05/06/2024', 'Total   59.50 GBP'];
    expect(extractInvoiceFields([page(english, { source: 'ocr' })])[0]!.vendorName).toBe('WebBuilders Ltd');
  });
});

describe('extractReceiptFields', () => {
  it('reads a noisy OCR till receipt', () => {
    const r = extractReceiptFields([
      page(
        [
          'SIA "Maiznica"',
          'Rīga, Brīvības iela 1',
          'PVN reģ. Nr. LV40003000000',
          'Kafija   1 x 2.50   2.50',
          'Croissant   1.80',
          'K0PA EUR   4. 30',
          'KARTE   4.30',
          'VISA **** 1234',
          '09.02.2022 17:49',
        ],
        { source: 'ocr' },
      ),
    ]);
    expect(r).toMatchObject({ merchantName: 'SIA "Maiznica"', receiptDate: '2022-02-09', total: 4.3, currency: 'EUR' });
    expect(r.paymentMethod).toEqual({ type: 'credit', cardBrand: 'Visa', last4: '1234' });
    expect(r.lineItems.map((l) => l.description)).toContain('Croissant');
  });

  it('uses cash − change and the rounded total on a Malaysian receipt', () => {
    const r = extractReceiptFields([
      page(
        [
          'KEDAI MAKAN SEDAP',
          '(JM0000-X)',
          'NO. 1, JALAN SATU',
          'DATE: 28/02/2018',
          'NASI LEMAK   2   9.90',
          'SUB TOTAL   9.90',
          'GST 6%   0.59',
          'ROUNDING ADJ   0.01',
          'TOTAL RM   10.50',
          'CASH   20.00',
          'CHANGE   9.50',
        ],
        { source: 'ocr' },
      ),
    ]);
    expect(r).toMatchObject({ merchantName: 'KEDAI MAKAN SEDAP', receiptDate: '2018-02-28', total: 10.5, subtotal: 9.9, tax: 0.59, currency: 'MYR' });
    expect(r.paymentMethod.type).toBe('cash');
  });
});

describe('categories', () => {
  it.each([
    ['Chicken breast 5kg', 'food_cost'],
    ['Coca-Cola 24x0.33', 'nonalcoholic_beverage_cost'],
    ['Heineken keg 50L', 'beer_cost'],
    ['Rotwein Merlot', 'wine_cost'],
    ['Vodka 1L', 'liquor_cost'],
    ['To-go containers 500ct', 'paper_packaging'],
    ['Degreaser 5L', 'supply_cost'],
    ['Chef knife', 'smallwares'],
    ['Aprons', 'linen_uniform'],
    ['Combi oven', 'equipment'],
    ['Repair of dishwasher', 'repairs_maintenance'],
    ['Delivery charge', 'freight_delivery'],
    ['Electricity March', 'utilities'],
    ['Loyer mars', 'rent_occupancy'],
    ['Flyer printing', 'marketing_advertising'],
    ['POS software subscription', 'technology_services'],
    ['Liquor license renewal', 'taxes_licenses_fees'],
    ['Miscellaneous', 'other_expense'],
  ])('%s → %s', (d, c) => expect(categorizeLineItem(d)).toBe(c));

  it('falls back to the vendor', () => expect(categorizeLineItem('Item 4411', { vendorName: 'Sunrise Brewery Inc' })).toBe('beer_cost'));

  it('maps receipts to Schedule C lines', () => {
    expect(taxCategoryForReceipt({ merchantName: 'HARBOR VIEW RESTAURANT' })).toBe('Meals');
    expect(taxCategoryForReceipt({ merchantName: 'BLUE RIDGE PETROL STATION' })).toBe('Car and Truck');
    expect(taxCategoryForReceipt({ merchantName: 'Grand Hotel' })).toBe('Travel');
    expect(taxCategoryForReceipt({ merchantName: 'NORTHSIDE HARDWARE SUPPLY' })).toBe('Supplies');
    expect(taxCategoryForReceipt({ merchantName: 'CORNER BOOKSHOP' })).toBe('Office Expense');
    expect(
      taxCategoryForReceipt({ merchantName: 'Unknown Co' }, [
        { description: 'Unleaded fuel 95', sku: null, quantity: 1, unit: null, unitPrice: null, total: 40 },
      ]),
    ).toBe('Car and Truck');
    expect(taxCategoryForReceipt({ merchantName: 'XYZ' })).toBe('Other');
  });
});
