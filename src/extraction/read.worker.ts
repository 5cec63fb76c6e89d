// Reading worker (node:worker_threads): does the CPU-heavy part of reading — pdf.js parsing, page rasterisation,
// OCR — off the main thread. Keeps one tesseract worker warm for its lifetime. Protocol: see worker-pool.ts.

import { parentPort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { createOcrEngine } from './ocr.ts';
import type { OcrEngine, PreprocessOptions } from './ocr.ts';
import { openPdf } from './pdf-text.ts';
import { UnreadableDocumentError, UnsupportedFileError } from './types.ts';
import type { FileType, PageText } from './types.ts';
import type { WorkerRequest, WorkerResponse } from './worker-pool.ts';

/** Render scale for OCR of text-less PDF pages. */
const PDF_OCR_DPI = 300;

let ocrPromise: Promise<OcrEngine> | null = null;
function ocr(): Promise<OcrEngine> {
  ocrPromise ??= createOcrEngine().catch((err: unknown) => {
    ocrPromise = null;
    throw err;
  });
  return ocrPromise;
}

export interface ReadJob {
  bytes: Uint8Array;
  fileType: FileType;
  /** Skip OCR of text-less PDF pages (they come back with no words). */
  ocrPdfPages?: boolean;
  preprocess?: Partial<PreprocessOptions>;
}

export async function runReadJob(job: ReadJob, getOcr: () => Promise<OcrEngine>): Promise<PageText[]> {
  if (job.fileType === 'pdf') return readPdf(job, getOcr);
  const engine = await getOcr();
  const r = await engine.recognizeImage(job.bytes, job.preprocess);
  return [{ page: 1, width: r.width, height: r.height, words: r.words, source: 'ocr', ms: r.ms }];
}

async function readPdf(job: ReadJob, getOcr: () => Promise<OcrEngine>): Promise<PageText[]> {
  const t0 = performance.now();
  const doc = await openPdf(job.bytes);
  const openMs = performance.now() - t0;
  try {
    const pages: PageText[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const tp = await doc.readTextPage(n);
      const extra = n === 1 ? Math.round(openMs) : 0;
      if (!tp.needsOcr || job.ocrPdfPages === false) {
        pages.push({ page: n, width: tp.width, height: tp.height, words: tp.words, source: tp.needsOcr ? 'ocr' : 'text-layer', ms: tp.ms + extra });
        continue;
      }
      const t1 = performance.now();
      const raster = await doc.renderPage(n, PDF_OCR_DPI);
      if (!raster) {
        // No canvas available to rasterise: keep whatever (negligible) text layer there is.
        pages.push({ page: n, width: tp.width, height: tp.height, words: tp.words, source: 'ocr', ms: tp.ms + extra + Math.round(performance.now() - t1) });
        continue;
      }
      const engine = await getOcr();
      // Rendered at a known DPI: no rescaling needed beyond the cap.
      const r = await engine.recognizeImage(raster.png, { minLongSide: 1, maxLongSide: 4000, ...job.preprocess });
      const k = tp.width / r.width; // pixels → points
      const ocrWords = r.words.map((w) => ({
        ...w,
        x: round2(w.x * k),
        y: round2(w.y * k),
        width: round2(w.width * k),
        height: round2(w.height * k),
      }));
      const ocrChars = ocrWords.reduce((s, w) => s + w.text.length, 0);
      const textChars = tp.words.reduce((s, w) => s + w.text.length, 0);
      const useOcr = ocrChars > textChars;
      pages.push({
        page: n,
        width: tp.width,
        height: tp.height,
        words: useOcr ? ocrWords : tp.words,
        source: useOcr ? 'ocr' : 'text-layer',
        ms: tp.ms + extra + Math.round(performance.now() - t1),
      });
    }
    return pages;
  } finally {
    await doc.close();
  }
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

function serialiseError(err: unknown): WorkerResponse & { ok: false } {
  const e = err as Error | undefined;
  const kind =
    err instanceof UnreadableDocumentError ? 'unreadable' : err instanceof UnsupportedFileError ? 'unsupported' : 'error';
  return { id: -1, ok: false, kind, message: e?.message ?? String(err) };
}

if (parentPort) {
  const port = parentPort;
  // Warm the OCR engine in the background; failures surface on the first job that needs it.
  void ocr().catch(() => undefined);
  port.on('message', (msg: WorkerRequest) => {
    if (msg.type === 'crash') {
      // Test hook: die abruptly, as a native crash or OOM would.
      process.exit(70);
    }
    if (msg.type !== 'read') return;
    const { id } = msg;
    runReadJob({ bytes: new Uint8Array(msg.buffer, msg.byteOffset, msg.byteLength), fileType: msg.fileType, ocrPdfPages: msg.ocrPdfPages, preprocess: msg.preprocess }, ocr)
      .then((pages) => port.postMessage({ id, ok: true, pages } satisfies WorkerResponse))
      .catch((err: unknown) => port.postMessage({ ...serialiseError(err), id } satisfies WorkerResponse));
  });
  process.on('unhandledRejection', () => {
    /* never let a stray rejection in a library kill the worker; jobs report their own errors */
  });
}
