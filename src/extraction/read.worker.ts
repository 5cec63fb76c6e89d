// Reading worker (node:worker_threads): does the CPU-heavy part of reading — pdf.js parsing, page rasterisation,
// OCR — off the main thread, one slice of a document at a time (see read-slices.ts). Keeps one tesseract worker
// warm for its lifetime, and the PDFs it was given open between their slices until the pool closes them.

import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { readEInvoiceXml } from './einvoice/read-einvoice.ts';
import type { EInvoiceReading } from './einvoice/types.ts';
import type { OcrEngine } from './ocr.ts';
import { loadOcrEngine, type OcrSettings, type OcrStatus } from './ocr-engine.ts';
import { ocrPdfPage } from './ocr-page.ts';
import { readAttachedEInvoice, scanEmbeddedFiles } from './pdf-attachments.ts';
import { loadPdfJs, openPdf } from './pdf-text.ts';
import type { OpenedPdf, PdfTextPage } from './pdf-text.ts';
import type { SliceResult, SliceSpec, WorkerRequest, WorkerResponse } from './read-slices.ts';
import { UnreadableDocumentError, UnsupportedFileError } from './types.ts';
import type { PageText } from './types.ts';
import { lowerThreadPriority } from './worker-priority.ts';

// libvips keeps recent operations and their pixels (up to 50 MB) for reuse; each image is read once here.
sharp.cache(false);

const settings = (workerData ?? {}) as { ocr?: OcrSettings; nice?: number };
/** The OCR engine the pool asked for (OCR_ENGINE): see ocr-engine.ts. */
const ocrSettings = (settings.ocr ?? {}) satisfies OcrSettings;
// Before anything starts threads of its own (ONNX Runtime's inherit this thread's priority): worker-priority.ts.
lowerThreadPriority(settings.nice ?? 0);

let ocrPromise: Promise<OcrEngine> | null = null;
function ocr(): Promise<OcrEngine> {
  ocrPromise ??= loadOcrEngine(ocrSettings).then(
    ({ engine, status }) => {
      parentPort?.postMessage({ type: 'ocr-status', status } satisfies WorkerResponse);
      return engine;
    },
    (err: unknown) => {
      ocrPromise = null;
      const status: OcrStatus = { engine: ocrSettings.engine ?? 'ppocr', fallbackReason: null };
      parentPort?.postMessage({ type: 'ocr-status', status, error: (err as Error)?.message ?? String(err) } satisfies WorkerResponse);
      throw err;
    },
  );
  return ocrPromise;
}

/** Documents open in this worker, by job id. */
const open = new Map<number, OpenedPdf>();

/** Time spent waiting for an engine to finish loading: the worker's start-up, not a document's work. */
async function ready<T>(load: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t = performance.now();
  const value = await load();
  return { value, ms: performance.now() - t };
}

async function runSlice(id: number, bytes: Uint8Array | undefined, spec: SliceSpec): Promise<SliceResult> {
  // A cold worker (just started, or on a busy machine) may take seconds to load pdf.js or the OCR engine; that is
  // not the document's reading time, so the budget's clock starts once the engine this slice needs is ready.
  if (spec.fileType === 'pdf') await loadPdfJs();
  else if (spec.fileType !== 'xml') await ocr();
  let t0 = performance.now();
  if (spec.fileType === 'xml') {
    if (!bytes) throw new Error('an XML file arrived without its bytes');
    const einvoice = readEInvoiceXml(bytes, null);
    return { numPages: 0, pages: [], next: null, blank: 0, ocrd: 0, notOcrd: [], ms: Math.round(performance.now() - t0), einvoice };
  }
  if (spec.fileType !== 'pdf') {
    if (!bytes) throw new Error('an image arrived without its bytes');
    const r = await (await ocr()).recognizeImage(bytes, spec.preprocess);
    const page: PageText = { page: 1, width: r.width, height: r.height, words: r.words, source: 'ocr', ms: r.ms, ...(r.skew ? { skew: r.skew } : {}) };
    return { numPages: 1, pages: [page], next: null, blank: 0, ocrd: 1, notOcrd: [], ms: Math.round(performance.now() - t0) };
  }
  let einvoice: EInvoiceReading | null | undefined;
  if (bytes) {
    await closeDocument(id);
    // Before pdf.js takes (detaches) the bytes.
    const embedded = spec.einvoice ? scanEmbeddedFiles(bytes) : null;
    const opened = await openPdf(bytes);
    open.set(id, opened);
    if (spec.einvoice) einvoice = embedded ? await readAttachedEInvoice(embedded, () => opened.attachments()) : null;
  }
  const doc = open.get(id);
  if (!doc) throw new Error('the document is not open in this reading worker');
  const openMs = bytes ? Math.round(performance.now() - t0) : 0;
  const last = Math.min(doc.numPages, spec.lastPage);
  const out: SliceResult = { numPages: doc.numPages, pages: [], next: null, blank: 0, ocrd: 0, notOcrd: [], ms: 0 };
  let n = spec.from;
  for (; n <= last; n++) {
    if (n > spec.from && performance.now() - t0 >= spec.untilMs) break;
    let t1 = performance.now();
    const tp = await doc.readTextPage(n);
    let read: Pick<PageText, 'words' | 'source' | 'skew'> = { words: tp.words, source: 'text-layer' };
    if (tp.needsOcr) {
      if (await doc.isBlankPage(n)) out.blank++;
      else if (out.ocrd >= spec.ocrLeft - (spec.ocrForLast && n < last ? 1 : 0)) out.notOcrd.push(n);
      else {
        out.ocrd++;
        const engine = await ready(ocr);
        t0 += engine.ms;
        t1 += engine.ms;
        read = (await ocrPage(doc, tp, engine.value, spec)) ?? read;
      }
    }
    await doc.releasePage(n);
    const ms = Math.round(performance.now() - t1) + (n === spec.from ? openMs : 0);
    out.pages.push({ page: n, width: tp.width, height: tp.height, ...read, ms });
  }
  out.next = n <= last ? n : null;
  out.ms = Math.round(performance.now() - t0);
  if (einvoice !== undefined) out.einvoice = einvoice;
  return out;
}

/** Rasterise and OCR a page without a usable text layer; null when there is no canvas, or OCR found less text than the layer. */
async function ocrPage(doc: OpenedPdf, tp: PdfTextPage, engine: OcrEngine, spec: SliceSpec): Promise<Pick<PageText, 'words' | 'source' | 'skew'> | null> {
  const ocrd = await ocrPdfPage(doc, tp.page, tp.width, engine, spec.preprocess);
  if (!ocrd) return null;
  const ocrChars = ocrd.words.reduce((s, w) => s + w.text.length, 0);
  const textChars = tp.words.reduce((s, w) => s + w.text.length, 0);
  // Scaling both axes alike keeps the angle the boxes were turned by.
  const skew = ocrd.result.skew ? { skew: ocrd.result.skew } : {};
  return ocrChars > textChars ? { words: ocrd.words, source: 'ocr', ...skew } : null;
}

/**
 * Leaves once nothing native runs: after the slice in hand and the OCR engine's loading, its sessions released.
 * (Terminating a thread inside an ONNX Runtime call aborts the whole process.)
 */
async function shutdown(running: Promise<unknown>): Promise<void> {
  await running.catch(() => undefined);
  const engine = await ocrPromise?.catch(() => null);
  await engine?.terminate().catch(() => undefined);
  await Promise.all([...open.keys()].map((id) => closeDocument(id).catch(() => undefined)));
  process.exit(0);
}

async function closeDocument(id: number): Promise<void> {
  const doc = open.get(id);
  open.delete(id);
  await doc?.close();
}

function serialiseError(id: number, err: unknown): WorkerResponse & { ok: false } {
  const e = err as Error | undefined;
  const kind = err instanceof UnreadableDocumentError ? 'unreadable' : err instanceof UnsupportedFileError ? 'unsupported' : 'error';
  return { id, ok: false, kind, message: e?.message ?? String(err) };
}

if (parentPort) {
  const port = parentPort;
  // Each engine loads when a slice first needs it: pdf.js with the first PDF, the OCR engine with the first photo or
  // scanned page (or when the pool asks, for /readyz). A worker that reads only photos never holds pdf.js (~30 MB),
  // one that reads only text-layer PDFs never holds the OCR models (~1.7 s of CPU to load; docs/decisions.md).
  let running: Promise<unknown> = Promise.resolve();
  port.on('message', (msg: WorkerRequest) => {
    if (msg.type === 'crash') {
      // Test hook: die abruptly, as a native crash or OOM would.
      process.exit(70);
    }
    if (msg.type === 'shutdown') {
      void shutdown(running);
      return;
    }
    if (msg.type === 'close') {
      void closeDocument(msg.id);
      return;
    }
    if (msg.type === 'load-ocr') {
      void ocr().catch(() => undefined); // a failure is reported as ocr-status, and again by the job that needs it
      return;
    }
    running = runSlice(msg.id, msg.bytes, msg.spec)
      .then((result) => port.postMessage({ id: msg.id, ok: true, result } satisfies WorkerResponse))
      .catch((err: unknown) => port.postMessage(serialiseError(msg.id, err)));
  });
  process.on('unhandledRejection', () => {
    /* never let a stray rejection in a library kill the worker; jobs report their own errors */
  });
}
