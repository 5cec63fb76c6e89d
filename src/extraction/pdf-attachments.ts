// The e-invoice a PDF carries (ZUGFeRD / Factur-X / XRechnung CII or UBL as an attached XML file), read in the
// reading worker once per document, on its first slice.
//
// Two sources: pdf.js's getAttachments() (the catalog's EmbeddedFiles name tree, with the files' names) and a scan
// of the raw bytes for embedded-file streams, which also finds files attached only through the catalog's /AF
// (associated files) or an annotation. The scan comes first and decodes every embedded file with a size cap:
// pdf.js decodes attachments whole, so it is only asked when none is over the cap (a small compressed stream can
// inflate to gigabytes). An encrypted PDF's attachments are not read: PDF/A-3, which every e-invoice PDF is,
// forbids encryption.

import zlib from 'node:zlib';
import { readEInvoiceXml } from './einvoice/read-einvoice.ts';
import { headText, sniffEInvoiceXml } from './einvoice/syntax.ts';
import type { EInvoiceReading } from './einvoice/types.ts';

/** Largest embedded file decoded; an e-invoice with embedded PDFs of its own stays well under it. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
/** Embedded files looked at per document, and their decoded bytes in all. */
const MAX_FILES = 32;
const MAX_TOTAL_BYTES = 32 * 1024 * 1024;
/** Places the name `/EmbeddedFile` is looked at (a hostile file may repeat it everywhere), and how far around one. */
const MAX_MATCHES = 128;
const WINDOW = 64 * 1024;

/** The names the ZUGFeRD, Factur-X and XRechnung specifications give the invoice attachment. */
const E_INVOICE_NAMES = new Set(['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml', 'order-x.xml']);

export interface ScannedFile {
  /** The decoded file; null when it is over the cap or could not be decoded (an unsupported filter). */
  bytes: Uint8Array | null;
  /** Its first few KB as text (for sniffing), also when it is over the cap. */
  head: string;
  tooLarge: boolean;
}

/** Embedded-file streams (`/Type /EmbeddedFile`) found in the raw bytes; null for an encrypted PDF. Never throws. */
export function scanEmbeddedFiles(pdf: Uint8Array): ScannedFile[] | null {
  const buf = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  if (buf.indexOf('/Encrypt') >= 0) return null;
  const out: ScannedFile[] = [];
  let total = 0;
  const TYPE = '/EmbeddedFile';
  let matches = 0;
  for (let at = buf.indexOf(TYPE); at >= 0 && out.length < MAX_FILES && total < MAX_TOTAL_BYTES && matches++ < MAX_MATCHES; at = buf.indexOf(TYPE, at + 1)) {
    // `/EmbeddedFiles` (the name tree's key) is another name.
    if (isNameChar(buf[at + TYPE.length])) continue;
    const stream = streamAround(buf, at);
    if (!stream) continue;
    const file = decode(stream.dict, stream.data);
    total += file.bytes?.length ?? 0;
    out.push(file);
  }
  return out;
}

/** The dictionary text and the raw data of the stream object whose dictionary holds position `at`. */
function streamAround(buf: Buffer, at: number): { dict: string; data: Buffer } | null {
  // The dictionary is near: look back and ahead within a window, never across the whole file.
  const before = Math.max(0, at - WINDOW);
  const back = buf.subarray(before, at).lastIndexOf(' obj');
  const ahead = buf.toString('latin1', at, Math.min(buf.length, at + WINDOW));
  // The keyword follows the dictionary's end (`/Subtype /application#2Foctet-stream` is not it).
  const kw = />>\s*stream(\r\n|\n|\r)/.exec(ahead);
  const endobj = ahead.indexOf('endobj');
  if (back < 0 || !kw || (endobj >= 0 && endobj < kw.index)) return null;
  const dict = buf.toString('latin1', before + back, at + kw.index + 2);
  const start = at + kw.index + kw[0].length;
  // A direct /Length is trusted when `endstream` follows it; otherwise (indirect or wrong) the keyword ends the data.
  const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict);
  if (length) {
    const end = start + Number(length[1]);
    const tail = buf.toString('latin1', end, Math.min(buf.length, end + 12));
    if (/^\s*endstream/.test(tail)) return { dict, data: buf.subarray(start, end) };
  }
  const end = buf.indexOf('endstream', start);
  if (end < 0) return null;
  let stop = end;
  if (buf[stop - 1] === 0x0a) stop--;
  if (buf[stop - 1] === 0x0d) stop--;
  return { dict, data: buf.subarray(start, Math.max(start, stop)) };
}

function decode(dict: string, data: Buffer): ScannedFile {
  const filters = [...(/\/Filter\s*(\[[^\]]*\]|\/\w+)/.exec(dict)?.[1] ?? '').matchAll(/\/(\w+)/g)].map((m) => m[1]);
  const predictor = /\/Predictor\s+(\d+)/.exec(dict);
  if (predictor && Number(predictor[1]) > 1) return { bytes: null, head: '', tooLarge: false };
  if (filters.length === 0) {
    const tooLarge = data.length > MAX_ATTACHMENT_BYTES;
    return { bytes: tooLarge ? null : new Uint8Array(data), head: headText(data), tooLarge };
  }
  if (filters.length > 1 || (filters[0] !== 'FlateDecode' && filters[0] !== 'Fl')) return { bytes: null, head: '', tooLarge: false };
  try {
    const bytes = inflate(data, MAX_ATTACHMENT_BYTES);
    return { bytes, head: headText(bytes), tooLarge: false };
  } catch (err) {
    const tooLarge = (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
    let head = '';
    try {
      // 1 KB of deflate data inflates to at most ~1 MB: enough for the root element, never a bomb.
      head = headText(inflate(data.subarray(0, 1024), 2 * 1024 * 1024));
    } catch {
      /* not even its beginning inflates */
    }
    return { bytes: null, head, tooLarge };
  }
}

/** Inflates at most `max` bytes; a stream cut short (no end marker, as some writers leave it) still gives its data. */
function inflate(data: Buffer, max: number): Uint8Array {
  return new Uint8Array(zlib.inflateSync(data, { maxOutputLength: max, finishFlush: zlib.constants.Z_SYNC_FLUSH }));
}

/** Regular characters continue a PDF name; white space and delimiters end it. */
function isNameChar(c: number | undefined): boolean {
  return c !== undefined && c > 0x20 && c < 0x7f && !'()<>[]{}/%'.includes(String.fromCharCode(c));
}

interface Candidate {
  name: string | null;
  bytes: Uint8Array;
}

/**
 * The e-invoice among a PDF's attachments: files with the specifications' names first, then other `.xml` files,
 * then files without a name; only those whose root element is a CII or UBL invoice (a file with an e-invoice name
 * is tried whatever it holds, so a broken one is reported). The first that reads wins; otherwise the first
 * failure says why. Null when the PDF carries no e-invoice.
 */
export async function readAttachedEInvoice(
  scanned: ScannedFile[],
  named: () => Promise<Array<{ name: string; content: Uint8Array }>>,
): Promise<EInvoiceReading | null> {
  if (scanned.length === 0) return null;
  // pdf.js would decode an oversized file whole: with one present, only the scan's (capped) files are used.
  const oversized = scanned.some((f) => f.tooLarge);
  const fromPdfJs = oversized ? [] : await named().catch(() => []);
  const candidates: Candidate[] = fromPdfJs.map((a) => ({ name: a.name, bytes: a.content }));
  for (const f of scanned) {
    if (f.bytes && !candidates.some((c) => Buffer.compare(c.bytes, f.bytes!) === 0)) candidates.push({ name: null, bytes: f.bytes });
  }
  const rank = (c: Candidate) => (c.name === null ? 2 : E_INVOICE_NAMES.has(c.name.toLowerCase()) ? 0 : /\.xml$/i.test(c.name) ? 1 : 3);
  let failed: EInvoiceReading | null = null;
  for (const c of candidates.filter((c) => rank(c) === 0 || sniffEInvoiceXml(headText(c.bytes))).sort((a, b) => rank(a) - rank(b))) {
    const reading = readEInvoiceXml(c.bytes, c.name);
    if (reading.einvoice) return reading;
    failed ??= reading;
  }
  if (!failed && scanned.some((f) => f.tooLarge && sniffEInvoiceXml(f.head))) {
    return { fileName: null, einvoice: null, error: `it is larger than ${MAX_ATTACHMENT_BYTES / 1048576} MB and was not read` };
  }
  return failed;
}
