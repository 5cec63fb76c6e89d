// The offline provider: the worker-pool reader (PDF text layer / OCR) and the field rules in ./fields.
import type { DocumentExtractor, ExtractOptions } from './extractor.ts';
import { extractInvoiceFields } from './fields/invoice.ts';
import { extractReceiptFields } from './fields/receipt.ts';
import type { DocumentReader, ReadResult } from './reader.ts';
import { type DocumentKind, UnreadableDocumentError } from './types.ts';

/** Uses `reader` without owning it: whoever created the reader closes it. */
export function createLocalExtractor(reader: DocumentReader): DocumentExtractor {
  async function read(bytes: Uint8Array, kind: DocumentKind, options: ExtractOptions = {}): Promise<ReadResult> {
    const result = await reader.read(bytes, kind, options);
    if (!result.pages.some((p) => p.words.length > 0)) {
      // The notes say whether the text might be on pages a budget left unread.
      const why = result.notes.length ? ` (${result.notes.join('; ')})` : '';
      throw new UnreadableDocumentError(`no text could be read from the document${why}`);
    }
    return result;
  }

  return {
    provider: 'local',
    async extractInvoices(bytes, _, options) {
      const { pageCount, pages, notes } = await read(bytes, 'invoice', options);
      return { pageCount, invoices: extractInvoiceFields(pages), notes };
    },
    async extractReceipt(bytes, _, options) {
      const { pageCount, pages, notes } = await read(bytes, 'receipt', options);
      return { pageCount, receipt: extractReceiptFields(pages), notes };
    },
    close: async () => {},
  };
}
