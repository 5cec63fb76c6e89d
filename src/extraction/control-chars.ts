import type { DocumentExtractor } from './extractor.ts';

// Control characters are no part of what a document shows, yet a corrupted PDF's text layer, an OCR model or a
// provider can hand them over. PostgreSQL refuses NUL in text and jsonb ("invalid byte sequence for encoding UTF8:
// 0x00": an upload answered 500), and the others are noise in names, numbers and search text.

/** C0 controls except tab, line feed and carriage return, and DEL. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
/** Every C0 control and DEL, for text whose whitespace is split on (a word never holds one). */
const ANY_CONTROL = /[\u0000-\u001f\u007f]/g;

/** `text` with its control characters removed (tab, line feed and carriage return kept). */
export function withoutControlChars(text: string): string {
  return text.replace(CONTROL, '');
}

/** `text` with each control character (tab and line ends included) turned into a space: same length, same offsets. */
export function controlCharsAsSpaces(text: string): string {
  return text.replace(ANY_CONTROL, ' ');
}

/** A copy of a plain value (objects, arrays, primitives) with the control characters of every string removed. */
export function withoutControlCharsDeep<T>(value: T): T {
  if (typeof value === 'string') return withoutControlChars(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => withoutControlCharsDeep(v)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutControlCharsDeep(v)])) as T;
  }
  return value;
}

/**
 * The extractor with every string of its results cleaned: whatever the provider (the local engine, Document AI, a
 * test's fake), what it read reaches the invoices, receipts, notes and search index without control characters.
 */
export function withCleanText(extractor: DocumentExtractor): DocumentExtractor {
  return {
    provider: extractor.provider,
    extractInvoices: async (bytes, fileType, options) => withoutControlCharsDeep(await extractor.extractInvoices(bytes, fileType, options)),
    extractReceipt: async (bytes, fileType, options) => withoutControlCharsDeep(await extractor.extractReceipt(bytes, fileType, options)),
    close: () => extractor.close(),
  };
}
