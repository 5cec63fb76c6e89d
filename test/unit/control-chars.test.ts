import { describe, expect, test } from 'vitest';
import { controlCharsAsSpaces, withCleanText, withoutControlCharsDeep } from '../../src/extraction/control-chars.ts';
import type { DocumentExtractor } from '../../src/extraction/extractor.ts';

// What any provider reads reaches the database without control characters (issue 47: a NUL was a 500).

describe('control characters in extracted text', () => {
  test('removed from every string of a result, tab and line ends kept, other values untouched', () => {
    const read = { name: 'A\u0000B\u0007', lines: [{ d: 'x\u001b\ty\r\nz\u007f', n: 2, none: null }], ok: true };
    expect(withoutControlCharsDeep(read)).toEqual({ name: 'AB', lines: [{ d: 'x\ty\r\nz', n: 2, none: null }], ok: true });
    expect(read.name).toBe('A\u0000B\u0007');
  });

  test('a text layer item keeps its length: each control character becomes a space', () => {
    expect(controlCharsAsSpaces('Green\u0000Valley\u0007\t')).toBe('Green Valley  ');
  });

  test("a provider's invoice and receipt are cleaned whatever it returns (a fake provider here)", async () => {
    const raw: DocumentExtractor = {
      provider: 'documentai',
      extractInvoices: async () => ({ pageCount: 1, invoices: [{ vendorName: 'Acme\u0000' } as never], notes: ['p\u00001'] }),
      extractReceipt: async () => ({ pageCount: 1, receipt: { merchantName: '\u0000Cafe' } as never, notes: [] }),
      close: async () => {},
    };
    const clean = withCleanText(raw);
    expect(clean.provider).toBe('documentai');
    expect(await clean.extractInvoices(new Uint8Array(), 'pdf')).toEqual({ pageCount: 1, invoices: [{ vendorName: 'Acme' }], notes: ['p1'] });
    expect((await clean.extractReceipt(new Uint8Array(), 'jpeg')).receipt).toEqual({ merchantName: 'Cafe' });
  });
});
