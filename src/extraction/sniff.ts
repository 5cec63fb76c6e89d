// File type from content (magic bytes), never from the name or the declared content type.

import { headText, sniffEInvoiceXml } from './einvoice/syntax.ts';
import { UnsupportedFileError } from './types.ts';
import type { DocumentKind, FileType } from './types.ts';

const ACCEPTED = 'PDF, JPEG, PNG or WEBP';
const ACCEPTED_INVOICES = 'PDF, JPEG, PNG or WEBP files, or e-invoice XML files (CII or UBL),';

function startsWith(bytes: Uint8Array, sig: ReadonlyArray<number>, at = 0): boolean {
  if (bytes.length < at + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (bytes[at + i] !== sig[i]) return false;
  return true;
}

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));
const PDF = ascii('%PDF-');

function indexOf(bytes: Uint8Array, sig: ReadonlyArray<number>, limit: number): number {
  const end = Math.min(bytes.length, limit) - sig.length;
  outer: for (let i = 0; i <= end; i++) {
    for (let j = 0; j < sig.length; j++) if (bytes[i + j] !== sig[j]) continue outer;
    return i;
  }
  return -1;
}

/**
 * Identify an accepted document type; throws UnsupportedFileError (with a reason) for anything else. An e-invoice
 * XML file (a CII or UBL invoice by its root element) is accepted for invoices only; without a kind, it is not.
 */
export function sniffFileType(bytes: Uint8Array, kind?: DocumentKind): FileType {
  if (!bytes || bytes.length === 0) throw new UnsupportedFileError('the file is empty');
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  // PDF readers accept the header anywhere in the first 1024 bytes (some generators prepend junk).
  if (indexOf(bytes, PDF, 1024) >= 0) return 'pdf';
  const einvoice = sniffEInvoiceXml(headText(bytes));
  if (einvoice && kind === 'invoice') return 'xml';
  if (einvoice && kind === 'receipt') {
    throw new UnsupportedFileError(
      `unsupported file type for a receipt (it is an e-invoice XML file, ${einvoice.toUpperCase()}): e-invoices are accepted as invoices only; a receipt must be a ${ACCEPTED} file`,
    );
  }
  let looks = describe(bytes);
  if (looks === 'XML' && kind === 'invoice') looks = 'XML that is not a CII or UBL invoice';
  throw new UnsupportedFileError(
    `unsupported file type${looks ? ` (it looks like ${looks})` : ''}: only ${kind === 'invoice' ? ACCEPTED_INVOICES : `${ACCEPTED} files`} are accepted`,
  );
}

/** What an unaccepted file looks like, when recognisable. */
export function describe(bytes: Uint8Array): string | null {
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'a GIF image';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'a TIFF image';
  if (startsWith(bytes, ascii('BM')) && bytes.length > 14) return 'a BMP image';
  if (startsWith(bytes, ascii('ftyp'), 4)) {
    const brand = String.fromCharCode(...bytes.subarray(8, 12));
    if (/^(heic|heix|hevc|hevx|heim|heis|mif1|msf1)$/.test(brand)) return 'a HEIC/HEIF image';
    if (/^(avif|avis)$/.test(brand)) return 'an AVIF image';
    return 'an MP4/QuickTime media file';
  }
  if (startsWith(bytes, [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50, 0x20, 0x20])) return 'a JPEG 2000 image';
  if (startsWith(bytes, ascii('RIFF'))) return 'a RIFF media file (e.g. WAV/AVI)';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, 2048));
    if (head.includes('word/')) return 'a ZIP archive (a Word .docx document)';
    if (head.includes('xl/')) return 'a ZIP archive (an Excel .xlsx workbook)';
    return 'a ZIP archive';
  }
  if (startsWith(bytes, [0x1f, 0x8b])) return 'a gzip archive';
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'a legacy Microsoft Office document';
  if (startsWith(bytes, ascii('7z'))) return 'a 7-Zip archive';
  if (startsWith(bytes, ascii('Rar!'))) return 'a RAR archive';
  if (startsWith(bytes, [0x7f, 0x45, 0x4c, 0x46])) return 'an executable (ELF)';
  if (startsWith(bytes, ascii('MZ'))) return 'a Windows executable';
  const text = asText(bytes.subarray(0, 4096));
  if (text !== null) {
    const t = text.trimStart().toLowerCase();
    if (t.startsWith('<svg') || (t.startsWith('<?xml') && t.includes('<svg'))) return 'an SVG image';
    if (t.startsWith('<!doctype html') || t.startsWith('<html')) return 'an HTML page';
    if (t.startsWith('<?xml') || t.startsWith('<')) return 'XML';
    if (t.startsWith('{') || t.startsWith('[')) return 'JSON text';
    return 'plain text';
  }
  return null;
}

/** The bytes decoded as UTF-8 when they are (almost certainly) text, else null. */
function asText(bytes: Uint8Array): string | null {
  if (bytes.length === 0) return null;
  let s: string;
  try {
    // A multi-byte char cut at the 4096 boundary is fine: non-fatal decoding tolerates the last one.
    s = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  } catch {
    return null;
  }
  let bad = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c === 0xfffd || (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c)) bad++;
  }
  return bad <= Math.max(1, s.length * 0.01) ? s : null;
}
