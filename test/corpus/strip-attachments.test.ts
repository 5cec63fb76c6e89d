// Stripping embedded files (the e-invoice XML of ZUGFeRD / Factur-X PDFs) leaves the page text alone and no
// attachment behind: not in the name tree, not as associated files, not as annotations, not as orphaned objects.

import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AFRelationship, PDFArray, PDFDict, PDFDocument, PDFName, PDFStream } from 'pdf-lib';
import { stripAttachments, verifyStripped } from '../../corpus/strip-attachments.ts';
import { makeTextPdf } from '../fixtures/reading-fixtures.ts';

const XML = '<?xml version="1.0"?><rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>';

/** A text PDF carrying the XML the way e-invoices do: name tree, catalog /AF and a page file-attachment annotation. */
async function eInvoicePdf(): Promise<Uint8Array> {
  const text = await makeTextPdf([
    [
      { text: 'Rechnung Nr. 2024-117 vom 05.06.2024', x: 50, y: 60 },
      { text: 'Gesamtbetrag 119,00 EUR', x: 50, y: 90 },
    ],
  ]);
  const doc = await PDFDocument.load(text);
  await doc.attach(Buffer.from(XML), 'factur-x.xml', { mimeType: 'text/xml', description: 'Factur-X', afRelationship: AFRelationship.Data });
  const reloaded = await PDFDocument.load(await doc.save());
  const names = reloaded.catalog.lookup(PDFName.of('Names'), PDFDict).lookup(PDFName.of('EmbeddedFiles'), PDFDict).lookup(PDFName.of('Names'), PDFArray);
  const spec = names.get(1);
  reloaded.catalog.set(PDFName.of('AF'), reloaded.context.obj([spec]));
  const annot = reloaded.context.register(reloaded.context.obj({ Type: 'Annot', Subtype: 'FileAttachment', Rect: [10, 10, 30, 30], FS: spec }));
  reloaded.getPages()[0]!.node.set(PDFName.of('Annots'), reloaded.context.obj([annot]));
  return reloaded.save();
}

function embeddedStreams(doc: PDFDocument): number {
  return doc.context.enumerateIndirectObjects().filter(([, o]) => o instanceof PDFStream && o.dict.get(PDFName.of('Type')) === PDFName.of('EmbeddedFile'))
    .length;
}

describe('strip-attachments', () => {
  it('removes the embedded XML everywhere and keeps every word where it was', async () => {
    const original = await eInvoicePdf();
    expect(embeddedStreams(await PDFDocument.load(original))).toBe(1);
    const { bytes, removed } = await stripAttachments(original);
    expect(removed).toBe(1);
    const v = await verifyStripped(original, bytes);
    expect(v).toMatchObject({ attachmentsBefore: 1, attachmentsLeft: 0, textUnchanged: true });
    expect(v.words).toBeGreaterThan(5);
    const out = await PDFDocument.load(bytes);
    expect(embeddedStreams(out)).toBe(0);
    expect(out.catalog.lookupMaybe(PDFName.of('Names'), PDFDict)?.get(PDFName.of('EmbeddedFiles'))).toBeUndefined();
    expect(out.catalog.get(PDFName.of('AF'))).toBeUndefined();
    expect(out.getPages()[0]!.node.Annots()?.size() ?? 0).toBe(0);
  });

  it('leaves a PDF without attachments as it reads', async () => {
    const plain = await makeTextPdf([[{ text: 'Invoice INV-1 Total 10.00', x: 50, y: 60 }]]);
    const { bytes, removed } = await stripAttachments(plain);
    expect(removed).toBe(0);
    expect(await verifyStripped(plain, bytes)).toMatchObject({ attachmentsBefore: 0, attachmentsLeft: 0, textUnchanged: true });
  });

  const dev = new URL('../../../shared/datasets/dev/inv-013.pdf', import.meta.url);
  it.skipIf(!existsSync(dev))('strips a real ZUGFeRD invoice of the dev set (when the shared datasets are present)', async () => {
    const original = new Uint8Array(readFileSync(dev));
    const { bytes, removed } = await stripAttachments(original);
    expect(removed).toBeGreaterThan(0);
    expect(await verifyStripped(original, bytes)).toMatchObject({ attachmentsLeft: 0, textUnchanged: true });
  });
});
