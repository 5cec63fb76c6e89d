// The e-invoice a PDF carries, read in the reading worker (pdf.js attachments and the raw scan), and an XML file
// uploaded as it is; then delivered by the local extractor with the visible text engine alongside.

import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverInvoices } from '../../../src/extraction/local.extractor.ts';
import { createDocumentReader, type DocumentReader } from '../../../src/extraction/reader.ts';
import { UnreadableDocumentError, UnsupportedFileError } from '../../../src/extraction/types.ts';
import { attachEInvoice, ciiXml, einvoicePage, einvoicePdf, einvoiceTotals, kitchenSupplyEInvoice as spec, ublXml } from '../../fixtures/einvoice-documents.ts';
import { makeTextPdf } from '../../fixtures/reading-fixtures.ts';

let reader: DocumentReader;
const t = einvoiceTotals(spec);

beforeAll(() => {
  reader = createDocumentReader({ size: 2 });
});
afterAll(async () => {
  await reader?.close();
});

describe('a PDF with an embedded e-invoice', () => {
  it('is read from its factur-x.xml attachment, checked against the text layer', async () => {
    const read = await reader.read(await einvoicePdf(spec), 'invoice');
    expect(read.einvoice).toMatchObject({ fileName: 'factur-x.xml', error: null, einvoice: { invoiceNumber: spec.number, total: t.grandTotal } });
    expect(read.pages[0]!.words.length).toBeGreaterThan(20);
    const { invoices, notes } = deliverInvoices(read);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({
      source: 'e-invoice',
      vendorName: spec.seller,
      invoiceNumber: spec.number,
      invoiceDate: spec.issueDate,
      dueDate: spec.dueDate,
      subtotal: t.taxBasis,
      tax: t.tax,
      total: t.grandTotal,
      currency: 'EUR',
    });
    expect(invoices[0]!.lineItems.map((l) => [l.description, l.quantity, l.unit, l.unitPrice, l.total])).toEqual([
      ['Chef knife 21 cm', 4, 'pc', 38.5, 154],
      ['Olive oil extra virgin', 6, 'l', 9, 54],
      ['Kitchen towels', 12, 'pack', 2.95, 35.4],
    ]);
    expect(invoices[0]!.fieldConfidences).toMatchObject({ invoiceNumber: 99, total: 99 });
    expect(notes[0]).toBe('values come from the e-invoice factur-x.xml (CII, urn:cen.eu:en16931:2017)');
  });

  it('finds a file attached only through the catalog’s /AF (not in the EmbeddedFiles name tree)', async () => {
    const read = await reader.read(await einvoicePdf(spec, { afOnly: true }), 'invoice');
    expect(read.einvoice).toMatchObject({ fileName: null, einvoice: { invoiceNumber: spec.number } });
  });

  it('finds a UBL attachment under another name by its root element', async () => {
    const read = await reader.read(await einvoicePdf(spec, { xml: ublXml(spec), name: 'invoice-data.xml' }), 'invoice');
    expect(read.einvoice).toMatchObject({ fileName: 'invoice-data.xml', einvoice: { syntax: 'ubl', total: t.grandTotal } });
  });

  it('ignores attachments that are not e-invoices', async () => {
    const pdf = await attachEInvoice(await makeTextPdf([einvoicePage(spec)]), '<?xml version="1.0"?><deliveryNote xmlns="urn:x"/>', {
      name: 'lieferschein.xml',
    });
    const read = await reader.read(pdf, 'invoice');
    expect(read.einvoice).toBeNull();
    expect(deliverInvoices(read).invoices[0]!.source).toBe('text');
  });

  it('a printed value that differs from the e-invoice is noted and lowers that confidence', async () => {
    const read = await reader.read(await einvoicePdf(spec, { page: einvoicePage(spec, { total: '999,00' }) }), 'invoice');
    const { invoices, notes } = deliverInvoices(read);
    expect(invoices[0]).toMatchObject({ source: 'e-invoice', total: t.grandTotal });
    // The text engine may or may not pick 999,00 as the total; either way the e-invoice's total is not printed.
    expect(invoices[0]!.fieldConfidences.total).toBeLessThan(99);
    if (notes.some((n) => n.startsWith('the visible total')))
      expect(notes).toContain(`the visible total (999.00) differs from the e-invoice factur-x.xml's (${t.grandTotal.toFixed(2)}); the e-invoice's is kept`);
  });

  it('a broken e-invoice falls back to the visible text, with a note', async () => {
    const read = await reader.read(await einvoicePdf(spec, { xml: ciiXml(spec).replace('</rsm:ExchangedDocument>', '') }), 'invoice');
    expect(read.einvoice).toMatchObject({ fileName: 'factur-x.xml', einvoice: null, error: expect.stringMatching(/not well-formed XML/) });
    const { invoices, notes } = deliverInvoices(read);
    expect(invoices[0]!.source).toBe('text');
    expect(notes).toContainEqual(
      expect.stringMatching(/^the e-invoice factur-x.xml could not be read \(it is not well-formed XML .*\); values come from the visible text$/),
    );
  });

  it('an e-invoice whose totals do not add up falls back to the visible text', async () => {
    const { invoices, notes } = deliverInvoices(await reader.read(await einvoicePdf(spec, { xml: ciiXml(spec, { grandTotal: 1234.56 }) }), 'invoice'));
    expect(invoices[0]!.source).toBe('text');
    expect(notes).toContainEqual(expect.stringMatching(/is inconsistent \(its grand total 1234.56/));
  });

  it('an XXE attempt in the attachment is refused and the file it names is never read', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'xxe-'));
    writeFileSync(path.join(dir, 'secret.txt'), 'TOP-SECRET-CONTENT');
    const xml = ciiXml(spec)
      .replace(
        '<?xml version="1.0" encoding="UTF-8"?>',
        `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file://${path.join(dir, 'secret.txt')}">]>`,
      )
      .replace(spec.seller, '&xxe;');
    const read = await reader.read(await einvoicePdf(spec, { xml }), 'invoice');
    expect(read.einvoice?.error).toMatch(/DOCTYPE/);
    const delivered = deliverInvoices(read);
    expect(delivered.invoices[0]!.source).toBe('text');
    expect(JSON.stringify(delivered)).not.toContain('TOP-SECRET');
  });

  it('an attachment that inflates past the size cap is not decoded whole (a compression bomb)', async () => {
    const huge = ciiXml(spec).replace('<rsm:ExchangedDocumentContext>', `<!--${' '.repeat(11 * 1024 * 1024)}--><rsm:ExchangedDocumentContext>`);
    const pdf = await einvoicePdf(spec, { xml: huge });
    expect(pdf.length).toBeLessThan(200_000);
    const read = await reader.read(pdf, 'invoice');
    expect(read.einvoice).toMatchObject({ einvoice: null, error: 'it is larger than 10 MB and was not read' });
    expect(deliverInvoices(read).invoices[0]!.source).toBe('text');
  });

  it('receipts never look for an e-invoice', async () => {
    const read = await reader.read(await einvoicePdf(spec), 'receipt');
    expect(read.einvoice).toBeNull();
  });
});

describe('an e-invoice XML file', () => {
  it('is read as it is: no pages, source e-invoice', async () => {
    const read = await reader.read(new TextEncoder().encode(ublXml(spec)), 'invoice');
    expect(read).toMatchObject({ fileType: 'xml', pageCount: 0, pages: [] });
    const { invoices } = deliverInvoices(read);
    expect(invoices[0]).toMatchObject({ source: 'e-invoice', invoiceNumber: spec.number, total: t.grandTotal, pages: [] });
    expect(invoices[0]!.fieldConfidences.total).toBe(95);
  });

  it('that cannot be read is an unreadable document', async () => {
    const read = await reader.read(new TextEncoder().encode(ciiXml(spec).replace('</rsm:ExchangedDocument>', '')), 'invoice');
    expect(() => deliverInvoices(read)).toThrow(UnreadableDocumentError);
    expect(() => deliverInvoices(read)).toThrow(/^the e-invoice XML could not be read: it is not well-formed XML/);
  });

  it('is refused as a receipt, naming what a receipt may be', async () => {
    await expect(reader.read(new TextEncoder().encode(ciiXml(spec)), 'receipt')).rejects.toThrow(UnsupportedFileError);
    await expect(reader.read(new TextEncoder().encode(ciiXml(spec)), 'receipt')).rejects.toThrow(/e-invoices are accepted as invoices only/);
  });
});
