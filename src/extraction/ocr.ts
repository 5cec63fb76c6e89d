// OCR: image bytes → words with boxes. sharp normalises the image (EXIF orientation, grayscale, scale, contrast),
// tesseract.js (WASM, LSTM model from @tesseract.js-data/eng, loaded from disk — never from the network) reads it.
// Runs inside a reading worker (see read.worker.ts), which keeps one tesseract worker warm.

import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp, { type Sharp } from 'sharp';
import { createWorker, OEM, PSM } from 'tesseract.js';
import type { Worker as TesseractWorker } from 'tesseract.js';
import { UnreadableDocumentError } from './types.ts';
import type { Word } from './types.ts';
import type { OcrStage, StageTimes } from './ppocr/stages.ts';

const require = createRequire(import.meta.url);

/** Where the English LSTM model lives on disk, and whether it is gzipped. */
export function tesseractLangData(): { langPath: string; gzip: boolean } {
  const dir = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
  if (existsSync(path.join(dir, 'eng.traineddata.gz'))) return { langPath: dir, gzip: true };
  if (existsSync(path.join(dir, 'eng.traineddata'))) return { langPath: dir, gzip: false };
  throw new Error(`the OCR language data is missing from ${dir} (expected eng.traineddata[.gz])`);
}

export interface PreprocessOptions {
  /** Upscale so the long side is at least this many px (small scans/photos). */
  minLongSide: number;
  /** Downscale so the long side is at most this many px (huge phone photos: OCR time grows with pixels). */
  maxLongSide: number;
  /** Flatten uneven lighting (phone photos): divide by a heavily blurred copy of the image. */
  flattenBackground: boolean;
  /** Mild unsharp mask after scaling. */
  sharpen: boolean;
  /** Tesseract page segmentation: 'auto' finds blocks and columns; 'block' reads one uniform block (a receipt's single column). */
  segmentation: 'auto' | 'block';
  /** Tesseract binarisation: 'otsu' (one global threshold) or 'sauvola' (local: shadows and uneven light on photos). */
  threshold: 'otsu' | 'sauvola';
  /**
   * PP-OCR: a recognition crop's width as a share of its segment's proportions (recognition time follows it).
   * Receipts read better squeezed (0.8: the unclipped segment leaves margins above and below their large print; dev
   * receipts, even half: totals 60 -> 62 of 63); an invoice's small print runs together at 0.8 ("Orange uicet
   * fmcnnat") and reads as well at 0.9 as at 1 for 14% less time (docs/decisions.md).
   */
  recAspect: number;
}

export const DEFAULT_PREPROCESS: PreprocessOptions = {
  minLongSide: 2000,
  maxLongSide: 3000,
  flattenBackground: false,
  sharpen: false,
  segmentation: 'auto',
  threshold: 'otsu',
  recAspect: 0.9,
};

/** Tesseract parameters for the recognition options. */
const tesseractParams = (o: Pick<PreprocessOptions, 'segmentation' | 'threshold'>) => ({
  tessedit_pageseg_mode: o.segmentation === 'block' ? PSM.SINGLE_BLOCK : PSM.AUTO,
  thresholding_method: o.threshold === 'sauvola' ? '2' : '0',
});

export interface PreparedImage {
  /** PNG, 1 channel. */
  png: Buffer;
  /** Size of the (EXIF-oriented) input image: the coordinate space the words are reported in. */
  width: number;
  height: number;
  /** Prepared-image pixels per input pixel. */
  scale: number;
}

/** Pixels already decoded (a rendered PDF page): no encoding to PNG and decoding again on the way to OCR. */
export interface RawImage {
  /** Row-major, `channels` bytes per pixel (RGBA from the canvas). */
  pixels: Uint8Array;
  width: number;
  height: number;
  channels: 1 | 3 | 4;
}

/** What an engine reads: encoded image bytes (an upload) or decoded pixels (a rendered page). */
export type OcrInput = Uint8Array | Buffer | RawImage;

export const isRawImage = (input: OcrInput): input is RawImage => !(input instanceof Uint8Array);

/** A sharp pipeline over the input: encoded bytes (EXIF-oriented, flattened over white) or raw pixels (without alpha). */
export function sharpInput(input: OcrInput): Sharp {
  // A rendered page is painted over white: its alpha is opaque throughout.
  if (isRawImage(input)) return sharp(input.pixels, { raw: { width: input.width, height: input.height, channels: input.channels } }).removeAlpha();
  return sharp(input, { failOn: 'none', limitInputPixels: 120_000_000 }).rotate().flatten({ background: '#ffffff' });
}

/** Size of an image after its EXIF orientation. Throws UnreadableDocumentError when the bytes cannot be decoded. */
export async function orientedSize(input: OcrInput): Promise<{ width: number; height: number }> {
  if (isRawImage(input)) return { width: input.width, height: input.height };
  let meta;
  try {
    meta = await sharp(input, { failOn: 'none', limitInputPixels: 120_000_000 }).metadata();
  } catch (err) {
    throw new UnreadableDocumentError(`the image could not be decoded (${(err as Error).message})`);
  }
  if (!meta.width || !meta.height) throw new UnreadableDocumentError('the image has no dimensions');
  // EXIF orientations 5–8 swap width and height.
  const swap = (meta.orientation ?? 1) >= 5;
  return swap ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
}

/** Normalise an image for OCR. Throws UnreadableDocumentError when the bytes cannot be decoded. */
export async function prepareImage(input: OcrInput, opts: Partial<PreprocessOptions> = {}): Promise<PreparedImage> {
  const o = { ...DEFAULT_PREPROCESS, ...opts };
  const { width, height } = await orientedSize(input);
  const long = Math.max(width, height);
  let scale = 1;
  if (long < o.minLongSide) scale = o.minLongSide / long;
  else if (long > o.maxLongSide) scale = o.maxLongSide / long;
  const outW = Math.max(1, Math.round(width * scale));
  const outH = Math.max(1, Math.round(height * scale));

  try {
    let img = sharpInput(input).grayscale().toColourspace('b-w');
    if (scale !== 1) img = img.resize(outW, outH, { kernel: scale > 1 ? 'cubic' : 'lanczos3', fit: 'fill' });
    if (o.flattenBackground) {
      const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
      const flat = await flattenBackground(data, info.width, info.height);
      img = sharp(flat, { raw: { width: info.width, height: info.height, channels: 1 } }).toColourspace('b-w');
    }
    img = img.normalise({ lower: 1, upper: 99 });
    if (o.sharpen) img = img.sharpen({ sigma: 1 });
    const png = await img.png({ compressionLevel: 1 }).toBuffer();
    return { png, width, height, scale: outW / width };
  } catch (err) {
    throw new UnreadableDocumentError(`the image could not be processed (${(err as Error).message})`);
  }
}

/** Divide each pixel by a blurred estimate of the local paper brightness (removes shadows and gradients). */
async function flattenBackground(gray: Buffer, width: number, height: number): Promise<Buffer> {
  const sigma = Math.max(8, Math.round(Math.max(width, height) / 60));
  // A dilation-like max over a neighbourhood would be better; a wide blur of a lightly "closed" image is close
  // enough and cheap: small text strokes barely move the blurred mean.
  const bg = await sharp(gray, { raw: { width, height, channels: 1 } })
    .dilate(2)
    .blur(sigma)
    .raw()
    .toBuffer();
  const out = Buffer.allocUnsafe(gray.length);
  for (let i = 0; i < gray.length; i++) {
    const b = Math.max(bg[i]!, 1);
    const v = (gray[i]! / b) * 255;
    out[i] = v >= 255 ? 255 : v;
  }
  return out;
}

export interface OcrResult {
  width: number;
  height: number;
  words: Word[];
  /** Mean word confidence (0–100), 0 when no words. */
  confidence: number;
  ms: number;
  /** The words' boxes were turned by this angle (radians) about the image centre to level a tilted page (PP-OCR). */
  skew?: number;
  /** Where the time went (PP-OCR only; ms per stage). */
  stages?: Partial<Record<OcrStage, StageTimes>>;
}

export interface OcrEngine {
  /** Which engine this is: PP-OCR (ONNX Runtime) or the tesseract.js fallback. */
  readonly name: 'ppocr' | 'tesseract';
  /** OCR an encoded image or decoded pixels; words in input-image pixel coordinates (after EXIF orientation). */
  recognizeImage(input: OcrInput, opts?: Partial<PreprocessOptions>): Promise<OcrResult>;
  /** The longest side the engine reads an image at (larger ones are scaled down first): a page need not be rendered larger. */
  readonly maxInputSide?: number;
  terminate(): Promise<void>;
}

interface TBBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface TWord {
  text: string;
  confidence: number;
  bbox: TBBox;
}

export async function createOcrEngine(): Promise<OcrEngine> {
  const { langPath, gzip } = tesseractLangData();
  let worker: TesseractWorker | null = null;

  async function start(): Promise<TesseractWorker> {
    const w = await createWorker('eng', OEM.LSTM_ONLY, {
      langPath,
      gzip,
      cacheMethod: 'none',
      logger: () => undefined,
      errorHandler: () => undefined,
    });
    await w.setParameters({
      ...tesseractParams(DEFAULT_PREPROCESS),
      user_defined_dpi: '300',
      // Tesseract's diagnostics ("Image too small to scale!!") would go to stdout; they are not errors.
      debug_file: '/dev/null',
      preserve_interword_spaces: '0',
    });
    params = JSON.stringify(tesseractParams(DEFAULT_PREPROCESS));
    return w;
  }
  /** The recognition parameters the worker holds now (set again only when a job needs others). */
  let params = '';
  worker = await start();

  return {
    name: 'tesseract',
    async recognizeImage(input, opts) {
      const t0 = performance.now();
      const prepared = await prepareImage(input, opts);
      worker ??= await start();
      const wanted = tesseractParams({ ...DEFAULT_PREPROCESS, ...opts });
      let result;
      try {
        if (JSON.stringify(wanted) !== params) {
          await worker.setParameters(wanted as never);
          params = JSON.stringify(wanted);
        }
        result = await worker.recognize(prepared.png, {}, { blocks: true, text: false });
      } catch (err) {
        // A failed recognise can leave the WASM instance in a bad state: start a fresh one next time.
        const dead = worker;
        worker = null;
        await dead?.terminate().catch(() => undefined);
        throw new UnreadableDocumentError(`OCR failed (${(err as Error)?.message ?? String(err)})`);
      }
      const words = blocksToWords(result.data.blocks ?? [], 1 / prepared.scale, prepared.width, prepared.height);
      const confidence = words.length ? words.reduce((s, w) => s + w.confidence, 0) / words.length : 0;
      return {
        width: prepared.width,
        height: prepared.height,
        words,
        confidence: Math.round(confidence * 10) / 10,
        ms: Math.round(performance.now() - t0),
      };
    },
    async terminate() {
      const w = worker;
      worker = null;
      await w?.terminate().catch(() => undefined);
    },
  };
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** tesseract blocks → words (tesseract's reading order: block, paragraph, line, word), rescaled by `k`. */
export function blocksToWords(blocks: ReadonlyArray<unknown>, k: number, maxW: number, maxH: number): Word[] {
  const out: Word[] = [];
  for (const block of blocks as Array<{ paragraphs?: Array<{ lines?: Array<{ words?: TWord[] }> }> }>) {
    for (const para of block.paragraphs ?? []) {
      for (const line of para.lines ?? []) {
        for (const w of line.words ?? []) {
          const text = (w.text ?? '').trim();
          if (!text) continue;
          const x0 = Math.max(0, w.bbox.x0 * k);
          const y0 = Math.max(0, w.bbox.y0 * k);
          const x1 = Math.min(maxW, w.bbox.x1 * k);
          const y1 = Math.min(maxH, w.bbox.y1 * k);
          // A "word" of only box-drawing/noise characters with very low confidence is speckle, not text.
          if (w.confidence < 20 && !/[\p{L}\p{N}]/u.test(text)) continue;
          out.push({
            text,
            x: round2(x0),
            y: round2(y0),
            width: round2(Math.max(0, x1 - x0)),
            height: round2(Math.max(0, y1 - y0)),
            confidence: Math.round(Math.max(0, Math.min(100, w.confidence)) * 10) / 10,
          });
        }
      }
    }
  }
  return out;
}
