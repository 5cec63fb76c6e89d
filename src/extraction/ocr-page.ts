// OCR of a PDF page without a usable text layer: rendered straight to pixels at the size the engine reads (no PNG in
// between), recognised, and its words put in the page's points. Used by the reading worker (read.worker.ts) and by
// the OCR speed benchmark (bench/ocr-speed.ts), which times the same steps.

import type { OcrEngine, OcrResult, PreprocessOptions } from './ocr.ts';
import type { OpenedPdf } from './pdf-text.ts';
import type { Word } from './types.ts';

/** Render scale for OCR of text-less PDF pages. */
export const PDF_OCR_DPI = 300;
/** The long side a render is capped at when the engine names no size of its own (tesseract.js). */
const PDF_OCR_MAX_SIDE = 4000;

export interface OcrdPdfPage {
  /** In the page's points. */
  words: Word[];
  result: OcrResult;
}

/** The page rendered and OCR'd; null without a canvas to render on. */
export async function ocrPdfPage(
  doc: OpenedPdf,
  pageNumber: number,
  widthPt: number,
  engine: OcrEngine,
  preprocess?: Partial<PreprocessOptions>,
): Promise<OcrdPdfPage | null> {
  // No larger than the engine reads it (PP-OCR: 2560 px, ~220 DPI on A4): drawing more pixels only to scale them
  // down costs, and so did encoding the render as a PNG for the engine to decode (~2 s for a 300 DPI A4 page).
  const raster = await doc.renderPixels(pageNumber, PDF_OCR_DPI, engine.maxInputSide ?? PDF_OCR_MAX_SIDE);
  if (!raster) return null;
  // Rendered at a known DPI: no rescaling needed beyond the cap.
  const result = await engine.recognizeImage(raster, { minLongSide: 1, maxLongSide: PDF_OCR_MAX_SIDE, ...preprocess });
  const k = widthPt / result.width; // pixels → points
  const words = result.words.map((w) => ({ ...w, x: round2(w.x * k), y: round2(w.y * k), width: round2(w.width * k), height: round2(w.height * k) }));
  return { words, result };
}

const round2 = (n: number): number => Math.round(n * 100) / 100;
