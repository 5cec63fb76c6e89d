// Benchmark: where the time of OCR goes, one page at a time, in this process (no worker pool, no queue, no lock).
// `npm run bench -- ocr-speed [--count 14] [--seed 21] [--receipts 20] [--dataset ../shared/datasets/dev]`
//
// Scanned invoice pages: the corpus's first `count` documents of `seed` (till receipts and card slips left out),
// degraded as scans the way `npm run eval -- --corpus --scan` degrades them (same keys, same bytes): one page as a
// JPEG upload, more as a PDF of images, each page checked for ink and rendered as the reading worker does it
// (src/extraction/ocr-page.ts); `render` is both.
// Receipts: the first `receipts` photos of the dev dataset. Prints the 1-minute load average (the machine is shared),
// p50/p90 of a page's wall time, and per stage its p50 wall and CPU time (the process's, ONNX Runtime's threads
// included) and its share of all the wall time. `npm run eval` gives the end-to-end figure through the reader.

import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ocrPdfPage } from '../src/extraction/ocr-page.ts';
import { openPdf } from '../src/extraction/pdf-text.ts';
import { createPpOcrEngine } from '../src/extraction/ppocr/engine.ts';
import type { OcrStage, StageTimes } from '../src/extraction/ppocr/stages.ts';
import { scannedInvoices } from './scanned-corpus.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const COUNT = Number(arg('count', '14'));
const SEED = Number(arg('seed', '21'));
const RECEIPTS = Number(arg('receipts', '20'));
const DATASET = path.resolve(root, arg('dataset', '../shared/datasets/dev'));
const STAGES: OcrStage[] = ['render', 'decode', 'det-prep', 'det-run', 'det-post', 'crop', 'rec-prep', 'rec-run', 'rec-words', 'deskew'];

interface Timed {
  wallMs: number;
  stages: Partial<Record<OcrStage, StageTimes>>;
}

const load = () => os.loadavg()[0]!.toFixed(1);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] ?? 0;
const ms = (n: number) => `${Math.round(n).toLocaleString('en')} ms`;
const log = (s: string) => process.stderr.write(`${s}\n`);

const engine = await createPpOcrEngine();
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** One image read by the engine, timed (the stages come from the engine, the whole from here). */
async function readImage(bytes: Uint8Array): Promise<Timed> {
  const t0 = performance.now();
  const r = await engine.recognizeImage(bytes);
  return { wallMs: performance.now() - t0, stages: r.stages ?? {} };
}

/** Every page of a PDF of scanned pages, each rendered and read as the reading worker does. */
async function readPdf(bytes: Uint8Array): Promise<Timed[]> {
  const doc = await openPdf(new Uint8Array(bytes));
  const out: Timed[] = [];
  try {
    for (let n = 1; n <= doc.numPages; n++) {
      const { width } = await doc.readTextPage(n);
      const t0 = performance.now();
      const c0 = cpuNow();
      // The worker looks for ink before it renders for OCR; the two share the page's decoded images.
      if (await doc.isBlankPage(n)) throw new Error(`page ${n} of a scan reads as blank`);
      const r = await ocrPdfPage(doc, n, width, engine);
      if (!r) throw new Error('no canvas: @napi-rs/canvas is needed to render pages');
      // The render's CPU is what the process used before the engine started: the page's CPU less the engine's stages.
      const engineCpu = Object.values(r.result.stages ?? {}).reduce((s, t) => s + t.cpuMs, 0);
      const render = { wallMs: performance.now() - t0 - r.result.ms, cpuMs: cpuNow() - c0 - engineCpu };
      out.push({ wallMs: performance.now() - t0, stages: { render, ...r.result.stages } });
    }
  } finally {
    await doc.close();
  }
  return out;
}

function report(title: string, pages: Timed[]): void {
  const walls = pages.map((p) => p.wallMs);
  const total = walls.reduce((s, x) => s + x, 0);
  console.log(`${title} (n=${pages.length}): p50 ${ms(pct(walls, 50))}  p90 ${ms(pct(walls, 90))}  (load ${load()})`);
  console.log(`  ${'stage'.padEnd(10)} ${'wall p50'.padStart(10)} ${'cpu p50'.padStart(10)} ${'share'.padStart(7)}`);
  for (const stage of STAGES) {
    const times = pages.map((p) => p.stages[stage]).filter((t): t is StageTimes => t !== undefined);
    if (!times.length) continue;
    const share = times.reduce((s, t) => s + t.wallMs, 0) / total;
    const [wall, cpu] = [times.map((t) => t.wallMs), times.map((t) => t.cpuMs)].map((xs) => pct(xs, 50));
    console.log(`  ${stage.padEnd(10)} ${ms(wall!).padStart(10)} ${ms(cpu!).padStart(10)} ${`${(share * 100).toFixed(1)}%`.padStart(7)}`);
  }
}

console.log(`load average (1 min) at start: ${load()}; ${os.availableParallelism()} cores; PP-OCR in this process, one page at a time`);
// Scans first (generated and degraded up front, so only reading is timed), then receipts.
const scans = await scannedInvoices(SEED, COUNT);
log(`${scans.length} scanned invoices generated (seed ${SEED})`);
const receipts = readdirSync(DATASET)
  .filter((f) => /^rcpt-.*\.jpe?g$/.test(f))
  .sort()
  .slice(0, RECEIPTS)
  .map((f) => new Uint8Array(readFileSync(path.join(DATASET, f))));
// Warm: the first run of a model initialises its kernels.
if (scans[0]) await (scans[0].ext === 'pdf' ? readPdf(scans[0].bytes) : readImage(scans[0].bytes));

const pages: Timed[] = [];
for (const s of scans) pages.push(...(s.ext === 'pdf' ? await readPdf(s.bytes) : [await readImage(s.bytes)]));
report('scanned invoice pages', pages);
if (receipts.length) {
  const read: Timed[] = [];
  for (const bytes of receipts) read.push(await readImage(bytes));
  report('receipts', read);
} else console.log(`receipts: none in ${DATASET}`);
console.log(`load average (1 min) at the end: ${load()}`);
await engine.terminate();
