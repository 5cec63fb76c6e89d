import { describe, expect, test } from 'vitest';
import { createLocalExtractor } from '../../src/extraction/local.extractor.ts';
import type { DocumentReader } from '../../src/extraction/reader.ts';
import { type PageText, UnreadableDocumentError } from '../../src/extraction/types.ts';

// The local provider is the reader + the field rules; the upload tests (test/api) cover it end to end.

function readerOf(pages: PageText[]): DocumentReader & { kinds: string[] } {
  const kinds: string[] = [];
  return {
    kinds,
    read: async (_bytes, kind) => (kinds.push(kind), { fileType: 'pdf', pageCount: pages.length, pages, notes: [], einvoice: null }),
    close: async () => {},
    pool: undefined as never,
  };
}

const page = (lines: string[]): PageText => ({
  page: 1,
  width: 600,
  height: 800,
  source: 'text-layer',
  ms: 1,
  words: lines.flatMap((line, i) =>
    line.split(' ').map((text, j) => ({ text, x: 40 + j * 60, y: 40 + i * 20, width: text.length * 6, height: 10, confidence: 100 })),
  ),
});

describe('local extractor', () => {
  test('reads with the document kind and returns the page count with the fields', async () => {
    const reader = readerOf([page(['ACME SUPPLY CO', 'Invoice Number: A-1001', 'Invoice Date: 2024-03-05', 'Total 120.00'])]);
    const extractor = createLocalExtractor(reader);
    const { pageCount, invoices } = await extractor.extractInvoices(new Uint8Array([1]), 'pdf');
    expect(pageCount).toBe(1);
    expect(invoices[0]).toMatchObject({ invoiceNumber: 'A-1001', invoiceDate: '2024-03-05', total: 120 });
    const { receipt } = await extractor.extractReceipt(new Uint8Array([1]), 'png');
    expect(receipt.total).toBe(120);
    expect(reader.kinds).toEqual(['invoice', 'receipt']);
  });

  test('pages without a word are unreadable', async () => {
    const extractor = createLocalExtractor(readerOf([page([])]));
    await expect(extractor.extractInvoices(new Uint8Array([1]), 'pdf')).rejects.toBeInstanceOf(UnreadableDocumentError);
    await expect(extractor.extractReceipt(new Uint8Array([1]), 'jpeg')).rejects.toThrow('no text could be read from the document');
  });
});
