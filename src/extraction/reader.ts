// The reading layer's public entry: bytes → file type + pages of positioned words.
//
//   const reader = createDocumentReader({ limits: { maxPages: 50 } });
//   const { fileType, pageCount, pages, notes } = await reader.read(bytes, 'receipt', { lane: tenantId });
//   …
//   await reader.close();
//
// Sniffing happens on the calling thread (cheap) and rejects unsupported files with UnsupportedFileError before
// any worker is involved; PDFs are read from their text layer (blank pages are skipped, other text-less pages are
// rasterised and OCR'd), images are OCR'd as one page. For invoices, the e-invoice a PDF carries (a CII or UBL
// attachment) is read too, and an e-invoice XML file is read as it is (`einvoice` in the result). All heavy work runs in a ReadPool of worker threads, within
// per-document page, OCR and time budgets; `notes` says what a budget left unread.

import { sniffFileType } from './sniff.ts';
import { ReadPool } from './worker-pool.ts';
import type { ReadPoolOptions, RunOptions } from './worker-pool.ts';
import type { PreprocessOptions } from './ocr.ts';
import type { ReadOutcome } from './read-slices.ts';
import type { OcrEngineName } from './ocr-engine.ts';
import type { DocumentKind, FileType, PageText } from './types.ts';

export interface DocumentReaderOptions extends ReadPoolOptions {
  /** Override OCR image preprocessing (tuning/tests). */
  preprocess?: Partial<PreprocessOptions>;
  /** Told about every document read (metrics). */
  onRead?: (report: ReadReport) => void;
}

/** What one successful read took: its pages (each with its source and time) and the whole call's time. */
export interface ReadReport {
  documentKind: DocumentKind;
  fileType: FileType;
  /** From the call to the outcome, waiting for a worker included. */
  seconds: number;
  pages: readonly PageText[];
  einvoice: boolean;
  ocrEngine: OcrEngineName | null;
}

export interface ReadResult extends ReadOutcome {
  fileType: FileType;
}

export interface DocumentReader {
  /**
   * Rejects with UnsupportedFileError (not an accepted type), UnreadableDocumentError (corrupt, encrypted, worker
   * crash, timeout) or Error (reader closed).
   */
  read(bytes: Uint8Array, kind: DocumentKind, options?: RunOptions): Promise<ReadResult>;
  close(): Promise<void>;
  /** The underlying worker pool (sizing, stats, test hooks). */
  readonly pool: ReadPool;
}

/** Receipt photos: one column of large print, often crumpled or unevenly lit (recAspect: see PreprocessOptions). */
export const RECEIPT_PREPROCESS: Partial<PreprocessOptions> = { segmentation: 'block', threshold: 'sauvola', recAspect: 0.8 };

export function createDocumentReader(options: DocumentReaderOptions = {}): DocumentReader {
  const pool = new ReadPool(options);
  return {
    pool,
    async read(bytes, kind, readOptions = {}) {
      // Receipts are OCR'd as one column with local binarisation (see RECEIPT_PREPROCESS); explicit options win.
      const fileType = sniffFileType(bytes, kind);
      const preprocess = { ...(kind === 'receipt' ? RECEIPT_PREPROCESS : {}), ...options.preprocess };
      const input = { bytes, fileType, einvoice: kind === 'invoice', ...(Object.keys(preprocess).length ? { preprocess } : {}) };
      const started = performance.now();
      const outcome = await pool.run(input, readOptions);
      options.onRead?.({
        documentKind: kind,
        fileType,
        seconds: (performance.now() - started) / 1000,
        pages: outcome.pages,
        einvoice: outcome.einvoice !== null,
        ocrEngine: pool.ocrEngine,
      });
      return { fileType, ...outcome };
    },
    close: () => pool.close(),
  };
}
