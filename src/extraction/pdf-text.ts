// PDF reading with pdf.js (legacy build, Node): the text layer of every page as words with boxes, and, for pages
// with no usable text layer, whether the page is blank and a raster of it (through @napi-rs/canvas, pdf.js's own
// optional Node canvas) for OCR. Runs inside a reading worker (see read.worker.ts); nothing here touches the network.

import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { UnreadableDocumentError } from './types.ts';
import type { Word } from './types.ts';
import type { RawImage } from './ocr.ts';
import { textItemsToWords } from './text-words.ts';
import { hasInk, INK_CHECK_DPI, paintsSomething } from './blank-page.ts';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PDFDocumentProxy = import('pdfjs-dist/legacy/build/pdf.mjs').PDFDocumentProxy;
type PDFPageProxy = import('pdfjs-dist/legacy/build/pdf.mjs').PDFPageProxy;

const require = createRequire(import.meta.url);
const pdfjsDir = path.dirname(require.resolve('pdfjs-dist/package.json'));
const withSlash = (p: string): string => (p.endsWith(path.sep) ? p : p + path.sep);
const STANDARD_FONTS = withSlash(path.join(pdfjsDir, 'standard_fonts'));
const CMAPS = withSlash(path.join(pdfjsDir, 'cmaps'));
const WASM = withSlash(path.join(pdfjsDir, 'wasm'));
const ICCS = withSlash(path.join(pdfjsDir, 'iccs'));

let pdfjsPromise: Promise<PdfJs> | undefined;
/** pdf.js, loaded once per thread (a second or more on a cold worker: reading workers load it when they start). */
/** pdf.js's worker code (it has no type declarations; only its WorkerMessageHandler export is used, by pdf.js). */
const PDF_WORKER_MODULE: string = 'pdfjs-dist/legacy/build/pdf.worker.mjs';

export function loadPdfJs(): Promise<PdfJs> {
  pdfjsPromise ??= Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import(PDF_WORKER_MODULE) as Promise<unknown>]).then(([m, worker]) => {
    m.GlobalWorkerOptions.workerSrc ||= require.resolve(PDF_WORKER_MODULE);
    // pdf.js runs its "worker" in this thread under Node; handing it the loaded module here (the documented
    // globalThis.pdfjsWorker hook) keeps its first getDocument from importing 2 MB of code inside a document's time.
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= worker;
    return m;
  });
  return pdfjsPromise;
}

let canvasAvailable: boolean | undefined;
/** Whether pages can be rasterised (pdf.js renders through the optional `@napi-rs/canvas`). */
export function canRasterisePdf(): boolean {
  if (canvasAvailable === undefined) {
    try {
      require('@napi-rs/canvas');
      canvasAvailable = true;
    } catch {
      canvasAvailable = false;
    }
  }
  return canvasAvailable;
}

/** Fewer non-space characters than this on a page → treat the page as scanned and OCR it. */
export const MIN_TEXT_LAYER_CHARS = 16;

export interface PdfTextPage {
  page: number;
  /** Points (1/72 in), after the page's /Rotate. */
  width: number;
  height: number;
  words: Word[];
  ms: number;
  /** The text layer is empty or negligible. */
  needsOcr: boolean;
}

export interface OpenedPdf {
  numPages: number;
  readTextPage(pageNumber: number): Promise<PdfTextPage>;
  /**
   * Rasterise a page to grayscale-able RGBA pixels at `dpi` (capped so the long side stays ≤ `maxSide` px).
   * Returns null when no canvas implementation is available.
   */
  renderPage(pageNumber: number, dpi: number, maxSide?: number): Promise<RenderedPage | null>;
  /** The same raster as RGBA pixels, for OCR: encoding a 300 DPI page to PNG costs ~2 s, and decoding it again more. */
  renderPixels(pageNumber: number, dpi: number, maxSide?: number): Promise<RawImage | null>;
  /**
   * The page marks nothing (see blank-page.ts). False when it paints something and there is no canvas to look for ink.
   * A page with ink keeps its decoded images for the render that follows (decoding a scan's JPEG and preparing it to
   * paint takes ~0.5 s, and took it twice): `releasePage` frees them.
   */
  isBlankPage(pageNumber: number): Promise<boolean>;
  /** Frees what pdf.js holds of a page (its parsed content and decoded images). */
  releasePage(pageNumber: number): Promise<void>;
  /** The files of the catalog's EmbeddedFiles name tree, by name; pdf.js decodes every one whole (see pdf-attachments.ts). */
  attachments(): Promise<Array<{ name: string; content: Uint8Array }>>;
  close(): Promise<void>;
}

export interface RenderedPage {
  /** Encoded PNG of the page. */
  png: Buffer;
  widthPx: number;
  heightPx: number;
  /** Pixels per point. */
  scale: number;
}

function describePdfError(err: unknown): UnreadableDocumentError {
  const e = err as { name?: string; message?: string; code?: number } | undefined;
  const name = e?.name ?? '';
  const message = e?.message ?? String(err);
  if (name === 'PasswordException') {
    return new UnreadableDocumentError('the PDF is password-protected (encrypted) and cannot be read');
  }
  if (name === 'InvalidPDFException') {
    return new UnreadableDocumentError(`the PDF is corrupt or not a valid PDF (${message})`);
  }
  if (name === 'FormatError' || name === 'UnknownErrorException' || name === 'MissingPDFException') {
    return new UnreadableDocumentError(`the PDF could not be parsed (${message})`);
  }
  return new UnreadableDocumentError(`the PDF could not be read (${name ? name + ': ' : ''}${message})`);
}

export async function openPdf(bytes: Uint8Array): Promise<OpenedPdf> {
  const pdfjs = await loadPdfJs();
  // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy only if the caller still needs it.
  const task = pdfjs.getDocument({
    data: bytes,
    standardFontDataUrl: STANDARD_FONTS,
    cMapUrl: CMAPS,
    cMapPacked: true,
    wasmUrl: WASM,
    iccUrl: ICCS,
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    stopAtErrors: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  });
  let doc: PDFDocumentProxy;
  try {
    doc = await task.promise;
  } catch (err) {
    await task.destroy().catch(() => undefined);
    throw describePdfError(err);
  }
  if (doc.numPages < 1) {
    await task.destroy().catch(() => undefined);
    throw new UnreadableDocumentError('the PDF has no pages');
  }

  async function getPage(n: number): Promise<PDFPageProxy> {
    try {
      return await doc.getPage(n);
    } catch (err) {
      throw describePdfError(err);
    }
  }

  /** Render a page over white at `dpi` (long side capped at `maxSide` px) and hand the canvas to `use`; null without a canvas. */
  async function draw<T>(
    page: PDFPageProxy,
    dpi: number,
    maxSide: number,
    use: (canvas: any, context: any, w: number, h: number, scale: number) => Promise<T>,
    release = true,
  ): Promise<T | null> {
    if (!canRasterisePdf()) {
      page.cleanup();
      return null;
    }
    const base = page.getViewport({ scale: 1 });
    let scale = dpi / 72;
    const longest = Math.max(base.width, base.height) * scale;
    if (longest > maxSide) scale *= maxSide / longest;
    const viewport = page.getViewport({ scale });
    const w = Math.max(1, Math.ceil(viewport.width));
    const h = Math.max(1, Math.ceil(viewport.height));
    const factory = (doc as unknown as { canvasFactory: { create(w: number, h: number): { canvas: any; context: any }; destroy(c: unknown): void } })
      .canvasFactory;
    const cc = factory.create(w, h);
    try {
      cc.context.fillStyle = '#ffffff';
      cc.context.fillRect(0, 0, w, h);
      await page.render({ canvas: cc.canvas, canvasContext: cc.context, viewport }).promise;
      return await use(cc.canvas, cc.context, w, h, scale);
    } catch (err) {
      throw describePdfError(err);
    } finally {
      try {
        factory.destroy(cc);
      } catch {
        /* ignore */
      }
      if (release) page.cleanup();
    }
  }

  return {
    numPages: doc.numPages,
    async readTextPage(pageNumber) {
      const t0 = performance.now();
      const page = await getPage(pageNumber);
      const viewport = page.getViewport({ scale: 1 });
      let content;
      try {
        content = await page.getTextContent();
      } catch (err) {
        throw describePdfError(err);
      }
      const words = textItemsToWords(pdfjs, viewport.transform, content.items, content.styles);
      const chars = words.reduce((n, w) => n + w.text.length, 0);
      page.cleanup();
      return {
        page: pageNumber,
        width: round2(viewport.width),
        height: round2(viewport.height),
        words,
        ms: Math.round(performance.now() - t0),
        needsOcr: chars < MIN_TEXT_LAYER_CHARS,
      };
    },
    async renderPage(pageNumber, dpi, maxSide = 4000) {
      const page = await getPage(pageNumber);
      return draw(page, dpi, maxSide, async (canvas, _, w, h, scale) => ({ png: (await canvas.encode('png')) as Buffer, widthPx: w, heightPx: h, scale }));
    },
    async renderPixels(pageNumber, dpi, maxSide = 4000) {
      const page = await getPage(pageNumber);
      // The canvas's own buffer goes with it: a copy outlives it.
      return draw(page, dpi, maxSide, async (canvas, _, width, height) => ({ pixels: new Uint8Array(canvas.data()), width, height, channels: 4 as const }));
    },
    async isBlankPage(pageNumber) {
      const page = await getPage(pageNumber);
      let ops;
      try {
        ops = await page.getOperatorList();
      } catch (err) {
        page.cleanup();
        throw describePdfError(err);
      }
      if (!paintsSomething(pdfjs.OPS, ops.fnArray, ops.argsArray)) {
        page.cleanup();
        return true;
      }
      // It paints something, perhaps only white or outside the page: look for ink in a small render.
      const ink = await draw(page, INK_CHECK_DPI, Infinity, async (_, context, w, h) => hasInk(context.getImageData(0, 0, w, h).data), false);
      if (ink !== true) page.cleanup();
      return ink === false;
    },
    async releasePage(pageNumber) {
      (await getPage(pageNumber)).cleanup();
    },
    async attachments() {
      const all = (await doc.getAttachments()) as Record<string, { filename?: string; content?: Uint8Array }> | null;
      return Object.entries(all ?? {}).flatMap(([key, a]) => (a.content ? [{ name: a.filename || key, content: a.content }] : []));
    },
    async close() {
      await doc.destroy().catch(() => undefined);
    },
  };
}

const round2 = (n: number): number => Math.round(n * 100) / 100;
