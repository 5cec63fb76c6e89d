// The options and inputs of the reading pool (worker-pool.ts), and the shapes of its jobs and worker slots.

import type { Worker } from 'node:worker_threads';
import type { PreprocessOptions } from './ocr.ts';
import type { OcrSettings, OcrStatus } from './ocr-engine.ts';
import type { DocumentProgress, ReadLimits, ReadOutcome } from './read-slices.ts';
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
  /** A worker idle this long leaves (its memory with it); 0 keeps workers for the pool's life. Default 60 000. */
  idleReleaseMs?: number;
  /** The workers' nice value (0–19: 0 is the event loop's priority, 19 the lowest); default DEFAULT_READER_NICE. */
  nice?: number;
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

export interface Job {
  id: number;
  lane: string;
  bytes: Uint8Array;
  /** Null for the crash test hook. */
  progress: DocumentProgress | null;
  timeoutMs: number;
  resolve: (outcome: ReadOutcome) => void;
  reject: (err: Error) => void;
}

export interface Slot {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
  dead: boolean;
  /** Ids of the jobs whose document this worker holds open, least recently used first. */
  open: number[];
  /** Set while the worker is idle: it leaves when this fires. */
  idleTimer: NodeJS.Timeout | null;
}
