// Evidence of an invoice taken from its e-invoice: source EINVOICE, boxed where the page prints the value (where the
// text engine read it, or found on the page as the trust step finds it), no place where it is printed nowhere.
import { describe, expect, it } from 'vitest';
import { fromEInvoice } from '../../../src/extraction/einvoice/cross-check.ts';
import { readEInvoiceXml } from '../../../src/extraction/einvoice/read-einvoice.ts';
import { extractInvoiceFields } from '../../../src/extraction/fields/invoice.ts';
import type { FieldEvidence, PageText } from '../../../src/extraction/types.ts';
import { wordsInBox } from '../../helpers/evidence.ts';
import { ciiXml, einvoiceTotals, kitchenSupplyEInvoice as spec } from '../../fixtures/einvoice-documents.ts';
import { page } from '../fields/helpers.ts';

const t = einvoiceTotals(spec);
const reading = readEInvoiceXml(new TextEncoder().encode(ciiXml(spec)), 'factur-x.xml');
const de = (n: number) =>
  n
    .toFixed(2)
    .replace('.', ',')
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
const byField = (evidence: FieldEvidence[]) => Object.fromEntries(evidence.map((e) => [e.field, e]));
const inBox = (p: PageText, e: FieldEvidence) => wordsInBox(p.words, p.width, p.height, e.box!);

/** The page as the PDF prints it; `total`: what it prints as the total. */
const printed = (total = de(t.grandTotal)) =>
  page([
    'Nordhafen Gastro Supply GmbH',
    'Hafenstraße 4, 20457 Hamburg',
    '',
    `Rechnung Nr. ${spec.number}`,
    'Rechnungsdatum: 17.04.2026',
    '',
    `Nettobetrag   ${de(t.taxBasis)} EUR`,
    `Umsatzsteuer   ${de(t.tax)} EUR`,
    `Gesamtbetrag   ${total} EUR`,
  ]);

describe('evidence of an e-invoice', () => {
  it('boxes each of its values where the page prints it, source EINVOICE, with the e-invoice’s confidence', () => {
    const p = printed();
    const { invoice } = fromEInvoice(reading, extractInvoiceFields([p]), [p]);
    const f = byField(invoice!.evidence!.fields);
    expect(invoice!.source).toBe('e-invoice');
    for (const e of Object.values(f)) expect(e.source).toBe('EINVOICE');
    expect(inBox(p, f.vendorName!)).toBe('Nordhafen Gastro Supply GmbH');
    expect(inBox(p, f.invoiceNumber!)).toBe(spec.number);
    expect(inBox(p, f.invoiceDate!)).toBe('17.04.2026');
    expect(inBox(p, f.subtotal!)).toBe(de(t.taxBasis));
    expect(inBox(p, f.tax!)).toBe(de(t.tax));
    expect(inBox(p, f.total!)).toBe(de(t.grandTotal));
    expect(f.total).toMatchObject({ value: String(t.grandTotal), confidence: invoice!.fieldConfidences.total, page: 1 });
  });

  it('finds values the text engine did not read on the page as the trust step does; one printed nowhere has no place', () => {
    // No reading of the text to lean on; the printed total is another (the e-invoice's is kept); no due date printed.
    const p = printed('999,99');
    const { invoice } = fromEInvoice(reading, [], [p]);
    const f = byField(invoice!.evidence!.fields);
    expect(invoice!.total).toBe(t.grandTotal);
    expect(inBox(p, f.vendorName!)).toBe('Nordhafen Gastro Supply GmbH');
    expect(inBox(p, f.invoiceNumber!)).toBe(spec.number);
    expect(inBox(p, f.invoiceDate!)).toBe('17.04.2026');
    expect(inBox(p, f.subtotal!)).toBe(de(t.taxBasis));
    expect(inBox(p, f.tax!)).toBe(de(t.tax));
    expect(f.total).toMatchObject({ value: String(t.grandTotal), page: null, box: null, source: 'EINVOICE' });
    expect(f.dueDate).toMatchObject({ value: invoice!.dueDate, page: null, box: null, source: 'EINVOICE' });
    // The e-invoice's lines are looked for on the page too: these are not printed on it.
    expect(invoice!.evidence!.lineItems).toHaveLength(spec.lines.length);
    for (const e of invoice!.evidence!.lineItems.flat()) expect(e).toMatchObject({ source: 'EINVOICE', box: null });
  });

  it('gives an XML file uploaded alone no place for any value', () => {
    const { invoice } = fromEInvoice(readEInvoiceXml(new TextEncoder().encode(ciiXml(spec)), null), [], []);
    const all = [...invoice!.evidence!.fields, ...invoice!.evidence!.lineItems.flat()];
    expect(all.length).toBeGreaterThan(8);
    for (const e of all) expect(e).toMatchObject({ page: null, box: null, source: 'EINVOICE' });
  });
});
