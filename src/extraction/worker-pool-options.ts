// The options and inputs of the reading pool (worker-pool.ts).

import type { PreprocessOptions } from './ocr.ts';
import type { OcrSettings, OcrStatus } from './ocr-engine.ts';
import type { ReadLimits } from './read-slices.ts';
import type { FileType } from './types.ts';

export interface ReadPoolOptions {
  /** Number of worker threads; default os.availableParallelism() (min 1). */
  size?: number;
  /** Hard time limit of one slice in ms (the job fails and its worker is replaced); default 55 000. */
  timeoutMs?: number;
  /** Page, OCR and time budgets per document; default DEFAULT_READ_LIMITS. */
  limits?: Partial<ReadLimits>;
  /** Work per slice before a document yields its worker; default SLICE_MS. */
  sliceMs?: number;
  /** Start all workers (and their OCR engines) now instead of on first use. */
  warm?: boolean;
  /** Override the worker entry (tests). */
  workerUrl?: URL;
  /** The OCR engine the workers run (OCR_ENGINE; PP-OCR by default, tesseract.js as its fallback). */
  ocr?: OcrSettings;
  /** Called when a worker has loaded its OCR engine (the first report, and any that differs from it). */
  onOcrStatus?: (status: OcrStatus) => void;
}

export interface ReadJobInput {
  bytes: Uint8Array;
  fileType: FileType;
  preprocess?: Partial<PreprocessOptions>;
  /** Read the e-invoice the document carries (invoices). */
  einvoice?: boolean;
}

export interface RunOptions {
  /** Give the pool `bytes`' underlying ArrayBuffer instead of a copy: the caller's buffer is detached. */
  transfer?: boolean;
  /** Hard time limit of one slice (default: the pool's). */
  timeoutMs?: number;
  /** Whose document this is (a tenant id): documents are interleaved fairly across lanes. Default: one shared lane. */
  lane?: string;
}
