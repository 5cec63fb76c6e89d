import fc from 'fast-check';
import { Huge } from './wire.ts';

// Upload contents: random bytes, truncated and garbled PDFs, PNG/JPEG/WEBP headers over garbage (some claiming
// enormous dimensions), empty files, text, and now and then the real seeded invoice (a full extraction) or a file
// just over the 25 MB limit. Each is a recipe ({kind, ...}) turned into bytes when sent, so reports stay short.

export type FileRecipe =
  | { kind: 'random'; bytes: Uint8Array }
  | { kind: 'truncated-invoice'; keep: number }
  | { kind: 'garbled-invoice'; at: number; garbage: Uint8Array }
  | { kind: 'header'; format: keyof typeof HEADERS; garbage: Uint8Array }
  | { kind: 'text'; text: string }
  | { kind: 'invoice' }
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

export const fileRecipe: fc.Arbitrary<FileRecipe> = fc.oneof(
  { weight: 4, arbitrary: fc.uint8Array({ maxLength: 4096 }).map((bytes) => ({ kind: 'random' as const, bytes })) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 4000 }).map((keep) => ({ kind: 'truncated-invoice' as const, keep })) },
  {
    weight: 2,
    arbitrary: fc
      .record({ at: fc.integer({ min: 0, max: 3000 }), garbage: fc.uint8Array({ minLength: 1, maxLength: 64 }) })
      .map((r) => ({ kind: 'garbled-invoice' as const, ...r })),
  },
  {
    weight: 6,
    arbitrary: fc
      .record({ format: fc.constantFrom(...(Object.keys(HEADERS) as Array<keyof typeof HEADERS>)), garbage })
      .map((r) => ({ kind: 'header' as const, ...r })),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }).map((text) => ({ kind: 'text' as const, text })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'invoice' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'empty' as const }) },
);

/** Now and then a file just over the limit (kept rare: it is 25 MB on the wire). */
export const fileRecipeWithOversize: fc.Arbitrary<FileRecipe> = fc.oneof(
  { weight: 200, arbitrary: fileRecipe },
  { weight: 1, arbitrary: fc.constant({ kind: 'over-limit' as const }) },
);

export function fileBytes(recipe: FileRecipe, invoicePdf: Buffer): Buffer | Huge {
  switch (recipe.kind) {
    case 'random':
      return Buffer.from(recipe.bytes);
    case 'truncated-invoice':
      return invoicePdf.subarray(0, Math.min(recipe.keep, invoicePdf.length - 1));
    case 'garbled-invoice': {
      const copy = Buffer.from(invoicePdf);
      Buffer.from(recipe.garbage).copy(copy, Math.max(0, Math.min(recipe.at, copy.length - 1)));
      return copy;
    }
    case 'header':
      return Buffer.concat([HEADERS[recipe.format], recipe.garbage]);
    case 'text':
      return Buffer.from(recipe.text);
    case 'invoice':
      return invoicePdf;
    case 'empty':
      return Buffer.alloc(0);
    case 'over-limit':
      return new Huge('%PDF-1.4 ', Math.ceil((25 * 1024 * 1024 + 10) / 9));
  }
}
