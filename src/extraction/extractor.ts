// The extraction provider seam: bytes of an accepted file → our invoice / receipt fields. Uploads (and any other
// entry point that turns a document into fields) depend on this interface only, never on a provider.
//
//   const { pageCount, invoices, notes } = await extractor.extractInvoices(bytes, 'pdf', { lane: tenantId });
//   const { pageCount, receipt, notes } = await extractor.extractReceipt(bytes, 'jpeg', { lane: tenantId });
//
// Providers: `local` (./local.extractor.ts: the worker-pool reader + field rules, offline) and `documentai`
// (./documentai/documentai.extractor.ts: Google Document AI Invoice / Expense parsers). Chosen by EXTRACTOR.
// Cost categories are not a provider's job: the invoices and receipts services categorise every line item the same
// way whichever provider read it.

import type { DeliveredInvoice, ExtractedReceiptFields, FileType } from './types.ts';

export { UnreadableDocumentError } from './types.ts';

export interface InvoiceExtraction {
  pageCount: number;
  /** Usually one; a multi-vendor file may yield several; none when no invoice could be found. */
  invoices: DeliveredInvoice[];
  /**
   * What was left unread and why (page, OCR or time budget; blank pages skipped), and what the e-invoice the
   * document carries says against its visible text; empty when all was read and nothing disagreed.
   */
  notes: string[];
}

export interface ReceiptExtraction {
  pageCount: number;
  receipt: ExtractedReceiptFields;
  notes: string[];
}

export interface ExtractOptions {
  /** Whose document this is (a tenant id): the local engine shares its workers fairly between lanes. */
  lane?: string;
}

export interface DocumentExtractor {
  readonly provider: 'local' | 'documentai';
  /**
   * Rejects with UnreadableDocumentError (nothing could be read: corrupt, encrypted, no text, or the provider
   * refused the document itself) or ExtractionServiceError (the provider failed: unavailable, denied, timed out).
   */
  extractInvoices(bytes: Uint8Array, fileType: FileType, options?: ExtractOptions): Promise<InvoiceExtraction>;
  extractReceipt(bytes: Uint8Array, fileType: FileType, options?: ExtractOptions): Promise<ReceiptExtraction>;
  /** Releases what the provider holds (a remote client); the local reader's workers are closed by their owner. */
  close(): Promise<void>;
}

/**
 * The extraction provider failed for a reason that is not the document's (unavailable, permission denied, quota,
 * timeout, no credentials). The message is safe to show to partners; `cause` keeps the provider's own error.
 */
export class ExtractionServiceError extends Error {
  constructor(
    message: string,
    readonly details: { provider: DocumentExtractor['provider']; status?: string; cause?: unknown },
  ) {
    super(message, { cause: details.cause });
    this.name = 'ExtractionServiceError';
  }
}

export const MIME_TYPES: Record<FileType, string> = {
  pdf: 'application/pdf',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  xml: 'application/xml',
};
