import { describe, expect, it } from 'vitest';
import { readAttachedEInvoice, scanEmbeddedFiles } from '../../../src/extraction/pdf-attachments.ts';
import { attachEInvoice, ciiXml, kitchenSupplyEInvoice as spec } from '../../fixtures/einvoice-documents.ts';
import { makeTextPdf } from '../../fixtures/reading-fixtures.ts';

const text = (b: Uint8Array | null) => (b ? new TextDecoder().decode(b) : null);

describe('the raw scan for embedded files', () => {
  it('finds a compressed embedded file, whatever its MIME subtype says (octet-stream holds "stream")', async () => {
    const pdf = await makeTextPdf([[{ text: 'Invoice', x: 72, y: 72 }]]);
    const { PDFDocument, AFRelationship } = await import('pdf-lib');
    const doc = await PDFDocument.load(pdf);
    await doc.attach(new TextEncoder().encode(ciiXml(spec)), 'data.bin', { mimeType: 'application/octet-stream', afRelationship: AFRelationship.Alternative });
    const files = scanEmbeddedFiles(await doc.save());
    expect(files).toHaveLength(1);
    expect(text(files![0]!.bytes)).toBe(ciiXml(spec));
  });

  it('reads an uncompressed stream with an indirect /Length up to `endstream`', () => {
    const xml = ciiXml(spec);
    const raw = Buffer.from(
      `%PDF-1.7\n5 0 obj\n<< /Type /EmbeddedFile /Subtype /text#2Fxml /Length 6 0 R >>\nstream\n${xml}\nendstream\nendobj\n6 0 obj ${xml.length} endobj\n%%EOF\n`,
      'latin1',
    );
    expect(text(scanEmbeddedFiles(raw)![0]!.bytes)).toBe(xml);
  });

  it('does not read an encrypted PDF’s attachments (PDF/A-3 forbids encryption)', () => {
    expect(scanEmbeddedFiles(Buffer.from('%PDF-1.7\n1 0 obj << /Type /EmbeddedFile >> stream\nx\nendstream endobj trailer << /Encrypt 9 0 R >>'))).toBeNull();
  });

  it('stays fast on a file that repeats the name everywhere', () => {
    const hostile = Buffer.from('%PDF-1.7\n' + '/Type /EmbeddedFile '.repeat(400_000));
    const t0 = performance.now();
    expect(scanEmbeddedFiles(hostile)).toEqual([]);
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});

describe('choosing the e-invoice among the attachments', () => {
  it('prefers the specification’s name over another invoice XML, and names the file it read', async () => {
    const other = ciiXml({ ...spec, number: 'OTHER-1' });
    const pdf = await attachEInvoice(await attachEInvoice(await makeTextPdf([[{ text: 'x', x: 72, y: 72 }]]), other, { name: 'copy.xml' }), ciiXml(spec), {
      name: 'Factur-X.xml',
    });
    // What pdf.js gives: the name tree's files with their names.
    const named = async () => [
      { name: 'copy.xml', content: new TextEncoder().encode(other) },
      { name: 'Factur-X.xml', content: new TextEncoder().encode(ciiXml(spec)) },
    ];
    const reading = await readAttachedEInvoice(scanEmbeddedFiles(pdf)!, named);
    expect(reading).toMatchObject({ fileName: 'Factur-X.xml', einvoice: { invoiceNumber: spec.number } });
  });
});
