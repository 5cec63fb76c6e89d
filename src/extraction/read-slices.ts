// A document is read in slices — a few text pages, or one OCR'd page, at a time — so the pool can interleave
// documents and one large file never holds a worker for long (issue 13). This file is the protocol between the pool
// and a reading worker, and the main thread's side of one document: what its next slice may do, what the slices
// found, and notes that say what was left unread and why.

import type { EInvoiceReading } from './einvoice/types.ts';
import type { PreprocessOptions } from './ocr.ts';
import type { OcrStatus } from './ocr-engine.ts';
import { type FileType, type PageText, UnreadableDocumentError, UnsupportedFileError } from './types.ts';

export interface ReadLimits {
  /** Pages read per document at most; later pages are not read. */
  maxPages: number;
  /**
   * PDF pages OCR'd per document at most (0: none). Blank pages are skipped before OCR and do not count. From 2 up,
   * one of them is kept for the last page (see `budgetMs`).
   */
  maxOcrPages: number;
  /**
   * Worker time (ms) per document. The last page (of those `maxPages` allows) is where invoices print their totals,
   * so time is kept for it: once what is left would not cover the next page and the last one (each as slow as the
   * slowest page so far), the last page is read next and the pages between are not; past the budget only the last
   * page is still started.
   */
  budgetMs: number;
}

/**
 * 50 pages covers the longest invoices and statements we see (text pages cost 5–50 ms each, so ≤ ~2.5 s); 10 OCR'd
 * pages at 1–2 s each fit the 20 s budget; 20 s of work leaves a wide margin below the pool's 55 s per-slice
 * stop and the 60 s at which clients and proxies commonly give up (the last page, read past it, is one page more).
 */
export const DEFAULT_READ_LIMITS: ReadLimits = { maxPages: 50, maxOcrPages: 10, budgetMs: 20_000 };

/** What one slice may do. */
export interface SliceSpec {
  fileType: FileType;
  /** First page to read (1-based). */
  from: number;
  /** The page budget's last page (the document may end before it). */
  lastPage: number;
  /** Pages this slice may still OCR. */
  ocrLeft: number;
  /** One of `ocrLeft` is kept for the last page (`lastPage`, or the document's end before it). */
  ocrForLast?: boolean;
  /** No page is started after this much work (ms); the first page always is. */
  untilMs: number;
  preprocess?: Partial<PreprocessOptions>;
  /** Read the e-invoice the document carries (a PDF's attachment, or an XML file itself): on the first slice only. */
  einvoice?: boolean;
}

/** What one slice did. */
export interface SliceResult {
  numPages: number;
  /** Pages read, in order; blank and not-OCR'd pages come with their (negligible) text layer. */
  pages: PageText[];
  /** The next page to read, or null once the last page allowed was read. */
  next: number | null;
  blank: number;
  ocrd: number;
  /** Pages that needed OCR after the OCR budget was used up. */
  notOcrd: number[];
  /** Worker time spent, opening the document included. */
  ms: number;
  /** What the e-invoice the document carries says (only from a slice that read it; null: it carries none). */
  einvoice?: EInvoiceReading | null;
}

/** `bytes` comes with the first slice a worker gets of a document; it keeps the document open until `close`. */
export type WorkerRequest =
  | { type: 'slice'; id: number; bytes?: Uint8Array; spec: SliceSpec }
  | { type: 'close'; id: number }
  | { type: 'crash'; id: number }
  /** Load the OCR engine now (the pool asks when /readyz wants to know which one runs); it reports `ocr-status`. */
  | { type: 'load-ocr' }
  /** The pool is closing: finish the slice in hand, release the OCR sessions and exit (no terminate mid-native-call). */
  | { type: 'shutdown' };

export type WorkerResponse =
  /** Sent once the worker's OCR engine loaded (or failed to: `error`). */
  | { type: 'ocr-status'; status: OcrStatus; error?: string }
  | { id: number; ok: true; result: SliceResult }
  | { id: number; ok: false; kind: 'unreadable' | 'unsupported' | 'error'; message: string };

/** The error a worker's failed answer stands for. */
export function sliceError(res: { kind: 'unreadable' | 'unsupported' | 'error'; message: string }): Error {
  if (res.kind === 'unreadable') return new UnreadableDocumentError(res.message);
  return res.kind === 'unsupported' ? new UnsupportedFileError(res.message) : new Error(res.message);
}

export interface ReadOutcome {
  /** Pages the document has (more than were read when a limit was reached). */
  pageCount: number;
  pages: PageText[];
  notes: string[];
  /** The e-invoice the document carries, when invoices were read (null: none). */
  einvoice: EInvoiceReading | null;
}

export class DocumentProgress {
  private readonly pages: PageText[] = [];
  private readonly notOcrd: number[] = [];
  private pageCount = 0;
  private next: number | null = 1;
  private workMs = 0;
  private ocrd = 0;
  private blank = 0;
  /** The slowest page read so far (ms): what the last page is expected to take at most. */
  private slowestMs = 0;
  /** Pages left unread to keep the time budget for the last page. */
  private skipped: number[] = [];
  private einvoice: EInvoiceReading | null = null;

  constructor(
    readonly fileType: FileType,
    private readonly limits: ReadLimits,
    private readonly sliceMs: number,
    private readonly preprocess?: Partial<PreprocessOptions>,
    /** Look for an e-invoice (invoices only: receipts never carry one). */
    private readonly readEInvoice = false,
  ) {}

  get done(): boolean {
    return this.next === null;
  }

  nextSlice(): SliceSpec {
    if (this.next === null) throw new Error('the document has been read');
    return {
      fileType: this.fileType,
      from: this.next,
      lastPage: this.limits.maxPages,
      ocrLeft: Math.max(0, this.limits.maxOcrPages - this.ocrd),
      ...(this.limits.maxOcrPages >= 2 ? { ocrForLast: true } : {}),
      untilMs: Math.min(this.sliceMs, this.limits.budgetMs - this.workMs - this.slowestMs),
      ...(this.preprocess ? { preprocess: this.preprocess } : {}),
      ...(this.readEInvoice && this.next === 1 ? { einvoice: true } : {}),
    };
  }

  absorb(slice: SliceResult): void {
    this.pageCount = slice.numPages;
    this.pages.push(...slice.pages);
    this.notOcrd.push(...slice.notOcrd);
    this.workMs += slice.ms;
    this.ocrd += slice.ocrd;
    this.blank += slice.blank;
    this.next = slice.next;
    for (const p of slice.pages) this.slowestMs = Math.max(this.slowestMs, p.ms);
    if (slice.einvoice) this.einvoice = slice.einvoice;
    const last = Math.min(this.pageCount, this.limits.maxPages);
    if (this.next !== null && this.next < last && this.limits.budgetMs - this.workMs < 2 * this.slowestMs) {
      this.skipped = range(this.next, last - 1);
      this.next = last;
    }
  }

  outcome(): ReadOutcome {
    const { maxPages, maxOcrPages, budgetMs } = this.limits;
    const notes: string[] = [];
    if (this.skipped.length) {
      notes.push(`${pagesWere(this.skipped)} not read (limit ${Number((budgetMs / 1000).toFixed(1))} s of reading per document; the last page was read)`);
    }
    if (this.pageCount > maxPages) notes.push(`${pagesWere(range(maxPages + 1, this.pageCount))} not read (limit ${maxPages} pages per document)`);
    if (this.notOcrd.length) notes.push(`${pagesWere(this.notOcrd)} not OCR'd (limit ${maxOcrPages} OCR'd pages per document)`);
    if (this.blank) notes.push(`${this.blank} blank page${this.blank === 1 ? '' : 's'} skipped`);
    return { pageCount: this.pageCount, pages: this.pages, notes, einvoice: this.einvoice };
  }
}

const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** [3, 5, 6, 7] → "pages 3, 5–7 were"; [4] → "page 4 was". */
function pagesWere(pages: number[]): string {
  const runs: string[] = [];
  for (let i = 0; i < pages.length;) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j]! + 1) j++;
    runs.push(j > i ? `${pages[i]}–${pages[j]}` : `${pages[i]}`);
    i = j + 1;
  }
  return pages.length === 1 ? `page ${runs[0]} was` : `pages ${runs.join(', ')} were`;
}
