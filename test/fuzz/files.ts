import fc from 'fast-check';
import sharp from 'sharp';
import { ciiXml, einvoicePdf, kitchenSupplyEInvoice } from '../fixtures/einvoice-documents.ts';
import { CAFE_RECEIPT, invoicePages, makeInvoicePdf, makeReceiptImage, produceInvoice } from '../fixtures/invoice-documents.ts';
import { makeTextPdf, withCharCodes } from '../fixtures/reading-fixtures.ts';
import { Huge } from './wire.ts';

// Upload contents: random bytes, PNG/JPEG/WEBP headers over garbage (some claiming enormous dimensions), empty files,
// text, a file just over the 25 MB limit — and the valid documents the tests generate (an invoice PDF, an e-invoice
// PDF and its XML, a receipt photo as PNG, JPEG and WEBP) as they are or corrupted: bits flipped, cut short, bytes
// written over, or (issue 47) the invoice's text layer carrying a control character (a NUL was a 500). Each is a
// recipe ({kind, ...}) turned into bytes when sent, so reports stay short.

/** The valid documents corrupted files are made from, generated once per campaign (fuzzDocuments). */
export interface FuzzDocuments {
  /** The seeded invoice (compressed content streams, as pdfkit writes them). */
  invoicePdf: Buffer;
  /** The same layout with its streams left as text and `~` where a character code is written (withCharCodes). */
  plainInvoicePdf: Buffer;
  einvoicePdf: Buffer;
  einvoiceXml: Buffer;
  receiptPng: Buffer;
  receiptJpeg: Buffer;
  receiptWebp: Buffer;
}
export type DocumentName = Exclude<keyof FuzzDocuments, 'plainInvoicePdf'>;
const DOCUMENTS: DocumentName[] = ['invoicePdf', 'einvoicePdf', 'einvoiceXml', 'receiptPng', 'receiptJpeg', 'receiptWebp'];

export async function fuzzDocuments(): Promise<FuzzDocuments> {
  const receiptPng = await makeReceiptImage(CAFE_RECEIPT.slice(0, 6));
  // `~` where the text layer gets a character code: in the vendor, the number and every line.
  const lines = produceInvoice.lines.map((l) => ({ ...l, description: `~${l.description}` }));
  const tilde = { ...produceInvoice, vendor: 'Green~Valley Produce Co.', number: 'INV~20431', lines };
  return {
    invoicePdf: await makeInvoicePdf(produceInvoice),
    plainInvoicePdf: await makeTextPdf(invoicePages(tilde), { compress: false }),
    einvoicePdf: await einvoicePdf(kitchenSupplyEInvoice),
    einvoiceXml: Buffer.from(ciiXml(kitchenSupplyEInvoice)),
    receiptPng,
    receiptJpeg: await sharp(receiptPng).jpeg({ quality: 80 }).toBuffer(),
    receiptWebp: await sharp(receiptPng).webp({ quality: 80 }).toBuffer(),
  };
}

export type FileRecipe =
  | { kind: 'random'; bytes: Uint8Array }
  | { kind: 'truncated'; doc: DocumentName; keep: number }
  | { kind: 'garbled'; doc: DocumentName; at: number; garbage: Uint8Array }
  | { kind: 'bit-flips'; doc: DocumentName; flips: Array<[offset: number, bit: number]> }
  /** The invoice with character code `code` (a control character) in its text layer, its bits flipped or not. */
  | { kind: 'control-text'; code: number; flips: Array<[offset: number, bit: number]> }
  | { kind: 'header'; format: keyof typeof HEADERS; garbage: Uint8Array }
  | { kind: 'text'; text: string }
  | { kind: 'document'; doc: DocumentName }
  | { kind: 'empty' }
  | { kind: 'over-limit' };

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

const HEADERS = {
  pdf: Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n', 'latin1'),
  png: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  // A PNG whose IHDR claims 65535 × 65535 pixels, then nothing valid.
  pngHuge: Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    u32(13),
    Buffer.from('IHDR'),
    u32(65535),
    u32(65535),
    Buffer.from([8, 2, 0, 0, 0]),
    u32(0),
  ]),
  jpeg: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]),
  // A JPEG start of frame claiming 65500 × 65500.
  jpegHuge: Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0xff, 0xdc, 0xff, 0xdc, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]),
  webp: Buffer.concat([Buffer.from('RIFF'), Buffer.from([0xff, 0xff, 0xff, 0x7f]), Buffer.from('WEBPVP8 ')]),
  gif: Buffer.from('GIF89a'),
  tiff: Buffer.from([0x49, 0x49, 0x2a, 0x00]),
  zip: Buffer.from([0x50, 0x4b, 0x03, 0x04]),
  html: Buffer.from('<!doctype html><script>alert(1)</script>'),
  svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  csv: Buffer.from('business_date,net_sales\n2026-01-05,1234.56\n2026-13-45,abc\n,\n'),
};

const garbage = fc.uint8Array({ maxLength: 2048 });
const documentName = fc.constantFrom(...DOCUMENTS);
const flips = fc.array(fc.tuple(fc.nat(), fc.nat(7)), { minLength: 1, maxLength: 32 });
/** The C0 controls and DEL. */
const controlCode = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 31 }), fc.constant(0x7f));

export const fileRecipe: fc.Arbitrary<FileRecipe> = fc.oneof(
  { weight: 4, arbitrary: fc.uint8Array({ maxLength: 4096 }).map((bytes) => ({ kind: 'random' as const, bytes })) },
  { weight: 3, arbitrary: fc.record({ doc: documentName, keep: fc.nat() }).map((r) => ({ kind: 'truncated' as const, ...r })) },
  {
    weight: 2,
    arbitrary: fc
      .record({ doc: documentName, at: fc.nat(), garbage: fc.uint8Array({ minLength: 1, maxLength: 64 }) })
      .map((r) => ({ kind: 'garbled' as const, ...r })),
  },
  { weight: 3, arbitrary: fc.record({ doc: documentName, flips }).map((r) => ({ kind: 'bit-flips' as const, ...r })) },
  {
    weight: 3,
    arbitrary: fc
      .record({ code: controlCode, flips: fc.oneof(fc.constant([] as Array<[number, number]>), flips) })
      .map((r) => ({ kind: 'control-text' as const, ...r })),
  },
  {
    weight: 6,
    arbitrary: fc
      .record({ format: fc.constantFrom(...(Object.keys(HEADERS) as Array<keyof typeof HEADERS>)), garbage })
      .map((r) => ({ kind: 'header' as const, ...r })),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }).map((text) => ({ kind: 'text' as const, text })) },
  { weight: 1, arbitrary: documentName.map((doc) => ({ kind: 'document' as const, doc })) },
  { weight: 2, arbitrary: fc.constant({ kind: 'empty' as const }) },
);

/** Now and then a file just over the limit (kept rare: it is 25 MB on the wire). */
export const fileRecipeWithOversize: fc.Arbitrary<FileRecipe> = fc.oneof(
  { weight: 200, arbitrary: fileRecipe },
  { weight: 1, arbitrary: fc.constant({ kind: 'over-limit' as const }) },
);

/** `bytes` with the given bits flipped (offsets wrap around its length). */
function flipped(bytes: Buffer, flipsAt: Array<[number, number]>): Buffer {
  const copy = Buffer.from(bytes);
  for (const [offset, bit] of flipsAt) if (copy.length) copy[offset % copy.length]! ^= 1 << bit;
  return copy;
}

export function fileBytes(recipe: FileRecipe, docs: FuzzDocuments): Buffer | Huge {
  switch (recipe.kind) {
    case 'random':
      return Buffer.from(recipe.bytes);
    case 'truncated': {
      const doc = docs[recipe.doc];
      return doc.subarray(0, recipe.keep % doc.length);
    }
    case 'garbled': {
      const copy = Buffer.from(docs[recipe.doc]);
      Buffer.from(recipe.garbage).copy(copy, recipe.at % copy.length);
      return copy;
    }
    case 'bit-flips':
      return flipped(docs[recipe.doc], recipe.flips);
    case 'control-text':
      return flipped(withCharCodes(docs.plainInvoicePdf, '~', recipe.code), recipe.flips);
    case 'header':
      return Buffer.concat([HEADERS[recipe.format], recipe.garbage]);
    case 'text':
      return Buffer.from(recipe.text);
    case 'document':
      return docs[recipe.doc];
    case 'empty':
      return Buffer.alloc(0);
    case 'over-limit':
      return new Huge('%PDF-1.4 ', Math.ceil((25 * 1024 * 1024 + 10) / 9));
  }
}
