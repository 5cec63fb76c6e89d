// Confidences from evidence: amounts that close are near certain, amounts that contradict each other are a guess
// and the extraction says so in its notes; the invoice is never surer than its weakest key field.
import { describe, expect, it } from 'vitest';
import { extractInvoiceFields } from '../../../src/extraction/fields/invoice.ts';
import { deliverInvoices } from '../../../src/extraction/local.extractor.ts';
import { page } from './helpers.ts';

const invoice = (net: string, tax: string, total: string) =>
  page([
    'Elektro Schulz GmbH · Hauptstr. 1 · 12345 Berlin',
    'Max Mustermann Handels GmbH',
    'Beispielweg 2',
    '54321 Köln',
    '',
    ['Rechnungsnummer:   RE-2024-118', 300],
    ['Rechnungsdatum:   05.03.2024', 300],
    '',
    'Pos   Beschreibung   Menge   Einzelpreis   Betrag',
    '1   Kabel NYM 3x1,5   2   50,00   100,00',
    '',
    ['Zwischensumme   ' + net, 300],
    ['MwSt. 19%   ' + tax, 300],
    ['Gesamtbetrag   ' + total, 300],
    '',
    'Elektro Schulz GmbH · Amtsgericht Berlin HRB 1234 · USt-IdNr. DE123456789',
  ]);
const read = (p: ReturnType<typeof page>) => ({ fileType: 'pdf' as const, pageCount: 1, pages: [p], notes: [], einvoice: null });

describe('confidences', () => {
  it('rates amounts that close at a printed rate near certain, and notes nothing', () => {
    const [f] = extractInvoiceFields([invoice('100,00', '19,00', '119,00')]);
    expect([f!.subtotal, f!.tax, f!.total]).toEqual([100, 19, 119]);
    for (const k of ['subtotal', 'tax', 'total'] as const) expect(f!.fieldConfidences[k]).toBeGreaterThanOrEqual(90);
    expect(f!.notes).toBeUndefined();
    expect(deliverInvoices(read(invoice('100,00', '19,00', '119,00'))).notes).toEqual([]);
  });

  it('lowers the amounts and the invoice when no set adds up, and says so in the notes', () => {
    const [f] = extractInvoiceFields([invoice('100,00', '19,00', '150,00')]);
    // The net is what the line items add up to: better supported than the tax and total that contradict it,
    // but not near certain while the set does not close.
    for (const k of ['tax', 'total'] as const) expect(f!.fieldConfidences[k]).toBeLessThan(70);
    expect(f!.fieldConfidences.subtotal).toBeLessThan(90);
    expect(f!.confidence).toBeLessThan(70);
    const delivered = deliverInvoices(read(invoice('100,00', '19,00', '150,00')));
    expect(delivered.notes).toEqual(['the amounts do not add up: net 100.00 + tax 19.00 ≠ total 150.00']);
    expect(delivered.invoices[0]).not.toHaveProperty('notes');
  });

  it('never rates the invoice above its weakest key field', () => {
    for (const [f] of [extractInvoiceFields([invoice('100,00', '19,00', '119,00')]), extractInvoiceFields([invoice('100,00', '19,00', '150,00')])]) {
      const c = f!.fieldConfidences;
      expect(f!.confidence).toBeLessThanOrEqual(Math.min(...[c.vendorName, c.invoiceNumber, c.invoiceDate, c.total].map((v) => v ?? 0)));
    }
  });
});
