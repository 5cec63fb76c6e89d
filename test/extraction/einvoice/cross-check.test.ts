import { describe, expect, test } from 'vitest';
import { fromEInvoice } from '../../../src/extraction/einvoice/cross-check.ts';
import { readEInvoiceXml } from '../../../src/extraction/einvoice/read-einvoice.ts';
import type { EInvoiceReading } from '../../../src/extraction/einvoice/types.ts';
import type { ExtractedInvoiceFields, PageText } from '../../../src/extraction/types.ts';
import { ciiXml, einvoiceTotals, kitchenSupplyEInvoice as spec } from '../../fixtures/einvoice-documents.ts';

// The cross-check is given the text engine's reading directly, so these tests do not depend on the engine.

const t = einvoiceTotals(spec);
const reading = (xml = ciiXml(spec)): EInvoiceReading => readEInvoiceXml(new TextEncoder().encode(xml), 'factur-x.xml');

function page(lines: string[], source: PageText['source'] = 'text-layer'): PageText {
  return {
    page: 1,
    width: 595,
    height: 842,
    source,
    ms: 1,
    words: lines.flatMap((line, i) =>
      line.split(' ').map((text, j) => ({ text, x: 40 + j * 50, y: 40 + i * 16, width: text.length * 5, height: 10, confidence: 100 })),
    ),
  };
}

/** A visible rendering of the spec in German number style, as an e-invoice PDF prints it. */
const de = (n: number) =>
  n
    .toFixed(2)
    .replace('.', ',')
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
const printed = (over: Partial<Record<'number' | 'total' | 'date', string>> = {}) =>
  page([
    'Nordhafen Gastro Supply GmbH',
    'Hafenstraße 4 20457 Hamburg',
    `Rechnung Nr. ${over.number ?? spec.number}`,
    `Rechnungsdatum: ${over.date ?? '17.04.2026'} Fällig am 17.05.2026`,
    'Pos Artikel Menge Preis Betrag',
    '1 Chef knife 21 cm 4 38,50 154,00',
    `Nettobetrag ${de(t.taxBasis)} EUR`,
    `MwSt ${de(t.tax)} EUR`,
    `Gesamtbetrag ${over.total ?? de(t.grandTotal)} EUR`,
    `Bereits gezahlt 50,00 Zahlbetrag ${de(t.due)}`,
  ]);

function textReading(over: Partial<ExtractedInvoiceFields> = {}): ExtractedInvoiceFields {
  return {
    vendorName: 'Nordhafen Gastro Supply GmbH',
    invoiceNumber: spec.number,
    invoiceDate: '2026-04-17',
    dueDate: '2026-05-17',
    subtotal: t.taxBasis,
    tax: t.tax,
    total: t.grandTotal,
    currency: 'EUR',
    lineItems: [{ description: 'Chef knife 21 cm', sku: null, quantity: 4, unit: null, unitPrice: 38.5, total: 154 }],
    confidence: 70,
    fieldConfidences: { vendorName: 60, invoiceNumber: 70, invoiceDate: 70, dueDate: 55, total: 80, lineItems: 40 },
    pages: [1],
    ...over,
  };
}

describe('an e-invoice checked against the visible text', () => {
  test('agreeing values: the e-invoice values with high confidences, source e-invoice', () => {
    const { invoice, notes } = fromEInvoice(reading(), [textReading()], [printed()]);
    expect(invoice).toMatchObject({ source: 'e-invoice', invoiceNumber: spec.number, total: t.grandTotal, subtotal: t.taxBasis, pages: [1] });
    expect(invoice!.lineItems).toHaveLength(3);
    for (const f of ['vendorName', 'invoiceNumber', 'invoiceDate', 'dueDate', 'subtotal', 'tax', 'total', 'currency'])
      expect(invoice!.fieldConfidences[f]).toBe(99);
    expect(invoice!.confidence).toBe(99);
    expect(notes[0]).toBe('values come from the e-invoice factur-x.xml (CII, urn:cen.eu:en16931:2017)');
    expect(notes).toContain(
      `the amount due is ${t.due.toFixed(2)} (after prepayments or rounding); total is the invoice's grand total ${t.grandTotal.toFixed(2)}`,
    );
  });

  test('a value printed but not picked by the text engine still confirms it', () => {
    const { invoice } = fromEInvoice(reading(), [textReading({ total: t.due, invoiceDate: null })], [printed()]);
    expect(invoice!.fieldConfidences).toMatchObject({ total: 99, invoiceDate: 99 });
  });

  test('a disagreement keeps the e-invoice value, lowers its confidence and says so', () => {
    const { invoice, notes } = fromEInvoice(reading(), [textReading({ total: 1000 })], [printed({ total: '1.000,00' })]);
    expect(invoice!.total).toBe(t.grandTotal);
    expect(invoice!.fieldConfidences.total).toBe(70);
    expect(invoice!.confidence).toBeLessThan(99);
    expect(notes).toContain(`the visible total (1000.00) differs from the e-invoice factur-x.xml's (${t.grandTotal.toFixed(2)}); the e-invoice's is kept`);
  });

  test('what the visible text cannot confirm (no such value read, none printed) is high but not certain', () => {
    const { invoice } = fromEInvoice(
      reading(),
      [textReading({ dueDate: null })],
      [page(['Nordhafen Gastro Supply GmbH', `Rechnung ${spec.number}`, `Summe ${de(t.grandTotal)}`])],
    );
    expect(invoice!.fieldConfidences.dueDate).toBe(90);
  });

  test('fields the e-invoice does not carry come from the text (lines of a MINIMUM profile, a due date)', () => {
    const xml = ciiXml({ ...spec, dueDate: undefined }, { withoutLines: true });
    const { invoice } = fromEInvoice(reading(xml), [textReading()], [printed()]);
    expect(invoice!.dueDate).toBe('2026-05-17');
    expect(invoice!.fieldConfidences.dueDate).toBe(55);
    expect(invoice!.lineItems).toEqual(textReading().lineItems);
    expect(invoice!.fieldConfidences.lineItems).toBe(40);
  });

  test('an inconsistent e-invoice is not used: the caller falls back to the text, with a note', () => {
    const { invoice, notes } = fromEInvoice(reading(ciiXml(spec, { grandTotal: 999.99 })), [textReading()], [printed()]);
    expect(invoice).toBeNull();
    expect(notes).toEqual([
      expect.stringMatching(/^the e-invoice factur-x.xml is inconsistent \(its grand total 999.99 is not .*\); values come from the visible text$/),
    ]);
  });

  test('an unreadable e-invoice is not used', () => {
    const { invoice, notes } = fromEInvoice(reading('<not xml'), [textReading()], [printed()]);
    expect(invoice).toBeNull();
    expect(notes[0]).toMatch(/^the e-invoice factur-x.xml could not be read \(.*\); values come from the visible text$/);
  });

  test('an e-invoice whose number and total are nowhere on a text page describes another document', () => {
    const other = page([
      'Fischmarkt Lieferdienst',
      'Invoice 2026-88',
      'Date 01.03.2026',
      ...Array.from({ length: 10 }, (_, i) => `Item ${i} 1 10,00 10,00`),
      'Total 100,00 EUR',
    ]);
    const { invoice, notes } = fromEInvoice(reading(), [textReading({ invoiceNumber: '2026-88', total: 100 })], [other]);
    expect(invoice).toBeNull();
    expect(notes[0]).toMatch(/does not match the visible document \(neither its number FX-2026-0417 nor its total .* is printed on it\)/);
  });

  test('a garbled text layer (glyphs without Unicode) that reads no number or total does not set the e-invoice aside', () => {
    const garbled = page(Array.from({ length: 12 }, () => '\u0003\u0011 \u0014\u0015 ÿþ ýü'));
    const { invoice } = fromEInvoice(reading(), [textReading({ invoiceNumber: null, total: null, vendorName: 'ÿþ ýü' })], [garbled]);
    expect(invoice).toMatchObject({ source: 'e-invoice', total: t.grandTotal });
    expect(invoice!.fieldConfidences).toMatchObject({ invoiceNumber: 90, total: 90 });
  });

  test('on OCR-read pages an unconfirmed e-invoice is still used (OCR may have misread it)', () => {
    const ocr = page(['Nordhafen Gastro Supp1y', 'Rechnung FX-2O26-O417', ...Array.from({ length: 10 }, () => 'lorem ipsum'), 'Summe 3O1,27'], 'ocr');
    expect(fromEInvoice(reading(), [], [ocr]).invoice?.source).toBe('e-invoice');
  });

  test('an XML file uploaded alone stands alone: no visible text, confidences 95', () => {
    const { invoice } = fromEInvoice({ ...reading(), fileName: null }, [], []);
    expect(invoice).toMatchObject({ source: 'e-invoice', pages: [], total: t.grandTotal });
    expect(invoice!.fieldConfidences).toMatchObject({ vendorName: 95, total: 95, lineItems: 95, dueDate: 95 });
  });

  test('a credit note is noted; its printed (unsigned) amounts confirm it', () => {
    const { invoice, notes } = fromEInvoice(reading(ciiXml({ ...spec, typeCode: '381', prepaid: 0 })), [textReading()], [printed()]);
    expect(invoice!.total).toBe(-t.grandTotal);
    expect(invoice!.fieldConfidences.total).toBe(99);
    expect(notes).toContain('the e-invoice factur-x.xml is a credit note (type 381): its amounts are recorded as negative');
  });
});
