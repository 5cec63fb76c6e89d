import { describe, expect, it } from 'vitest';
import { sniffFileType } from '../../../src/extraction/sniff.ts';
import { UnsupportedFileError } from '../../../src/extraction/types.ts';
import { ciiXml, kitchenSupplyEInvoice, ublXml } from '../../fixtures/einvoice-documents.ts';
import { makeCorruptPdf, makeTextImagePng, makeTextPdf, toJpeg, toWebp } from '../../fixtures/reading-fixtures.ts';

function sniffError(bytes: Uint8Array, kind?: 'invoice' | 'receipt'): UnsupportedFileError {
  try {
    sniffFileType(bytes, kind);
  } catch (err) {
    expect(err).toBeInstanceOf(UnsupportedFileError);
    return err as UnsupportedFileError;
  }
  throw new Error('expected sniffFileType to throw');
}

describe('sniffFileType', () => {
  it('recognises PDF, JPEG, PNG and WEBP from their content', async () => {
    const png = await makeTextImagePng(['hello']);
    expect(sniffFileType(await makeTextPdf([[{ text: 'x', x: 10, y: 10 }]]))).toBe('pdf');
    expect(sniffFileType(png)).toBe('png');
    expect(sniffFileType(await toJpeg(png))).toBe('jpeg');
    expect(sniffFileType(await toWebp(png))).toBe('webp');
    // A broken PDF is still a PDF: reading it is what fails (UnreadableDocumentError), not sniffing.
    expect(sniffFileType(makeCorruptPdf())).toBe('pdf');
  });

  it('accepts a PDF header preceded by junk within the first 1024 bytes, not after', () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\n');
    expect(sniffFileType(Buffer.concat([Buffer.alloc(500, 0x20), pdf]))).toBe('pdf');
    expect(() => sniffFileType(Buffer.concat([Buffer.alloc(1100, 0x20), pdf]))).toThrow(UnsupportedFileError);
  });

  it('rejects an empty file', () => {
    expect(sniffError(new Uint8Array(0)).message).toBe('the file is empty');
  });

  it('rejects plain text — also when it is named like a PDF — naming what is accepted', () => {
    // Content decides; a renamed invoice.txt → invoice.pdf is still text.
    const err = sniffError(Buffer.from('INVOICE 42\nTotal: 10.00 EUR\n'));
    expect(err.message).toMatch(/PDF, JPEG, PNG or WEBP/);
    expect(err.message).toMatch(/plain text/);
  });

  it('says what other common files look like', () => {
    expect(sniffError(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')).message).toMatch(/GIF/);
    expect(sniffError(Buffer.from([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0])).message).toMatch(/TIFF/);
    expect(sniffError(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0])).message).toMatch(/ZIP/);
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1')]);
    expect(sniffError(heic).message).toMatch(/HEIC/);
    const unknown = sniffError(Buffer.from([0x00, 0x01, 0x02, 0x03, 0xfe, 0xfd, 0x00, 0x9c]));
    expect(unknown.message).toMatch(/only PDF, JPEG, PNG or WEBP/);
  });

  it('accepts an e-invoice XML file (CII or UBL, by its root element and namespace) for invoices only', () => {
    const cii = Buffer.from(ciiXml(kitchenSupplyEInvoice));
    const ubl = Buffer.from(ublXml(kitchenSupplyEInvoice, { creditNote: true }));
    expect(sniffFileType(cii, 'invoice')).toBe('xml');
    expect(sniffFileType(ubl, 'invoice')).toBe('xml');
    // A byte-order mark, comments and a UTF-16 encoding do not hide it.
    expect(
      sniffFileType(
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`<!-- exported -->\n${ciiXml(kitchenSupplyEInvoice).replace(/^<\?xml[^>]*>/, '')}`)]),
        'invoice',
      ),
    ).toBe('xml');
    expect(sniffFileType(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(ublXml(kitchenSupplyEInvoice), 'utf16le')]), 'invoice')).toBe('xml');
    expect(sniffError(cii, 'receipt').message).toBe(
      'unsupported file type for a receipt (it is an e-invoice XML file, CII): e-invoices are accepted as invoices only; a receipt must be a PDF, JPEG, PNG or WEBP file',
    );
    // Without a kind (nothing that reads XML asked for it), XML stays unsupported.
    expect(sniffError(cii).message).toMatch(/only PDF, JPEG, PNG or WEBP files are accepted/);
  });

  it('refuses other XML for invoices, saying what is accepted', () => {
    const err = sniffError(Buffer.from('<?xml version="1.0"?><Invoice xmlns="urn:example:other"><ID>1</ID></Invoice>'), 'invoice');
    expect(err.message).toBe(
      'unsupported file type (it looks like XML that is not a CII or UBL invoice): only PDF, JPEG, PNG or WEBP files, or e-invoice XML files (CII or UBL), are accepted',
    );
  });
});
