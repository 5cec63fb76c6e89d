// Dump what the reading layer sees: `npm run dump-pages -- <dir> <outDir>` reads every document
// listed in <dir>/manifest.json (a JSON array of { file, kind, … }) and writes <outDir>/<file>.json =
// { file, kind, fileType, pages } (or { file, kind, error } when the document cannot be read), then prints timings.
// `--ocr tesseract` reads with the fallback engine instead of PP-OCR.

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { OcrSettings } from '../src/extraction/ocr-engine.ts';
import { createDocumentReader } from '../src/extraction/reader.ts';
import type { DocumentKind, PageText } from '../src/extraction/types.ts';

interface ManifestEntry {
  file: string;
  kind: DocumentKind;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export async function dumpPages(dir: string, outDir: string, log: (s: string) => void = console.log, ocr: OcrSettings = {}): Promise<void> {
  const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as ManifestEntry[];
  if (!Array.isArray(manifest)) throw new Error(`${dir}/manifest.json is not a JSON array`);
  await mkdir(outDir, { recursive: true });
  const reader = createDocumentReader({ ocr });
  const t0 = performance.now();
  const ocrMs: number[] = [];
  const pdfPageMs: number[] = [];
  const docMs: number[] = [];
  let failed = 0;
  try {
    await Promise.all(
      manifest.map(async (entry) => {
        const bytes = await readFile(path.join(dir, entry.file));
        const started = performance.now();
        let out: { file: string; kind: DocumentKind; fileType?: string; pages?: PageText[]; error?: string };
        try {
          const r = await reader.read(bytes, entry.kind, { transfer: true });
          out = { file: entry.file, kind: entry.kind, fileType: r.fileType, pages: r.pages };
          for (const p of r.pages) (p.source === 'ocr' ? ocrMs : pdfPageMs).push(p.ms);
          const words = r.pages.reduce((n, p) => n + p.words.length, 0);
          log(`${entry.file}: ${r.fileType}, ${r.pages.length} page(s), ${words} words, ${r.pages.map((p) => `${p.source} ${p.ms} ms`).join(', ')}`);
        } catch (err) {
          failed++;
          out = { file: entry.file, kind: entry.kind, error: `${(err as Error).name}: ${(err as Error).message}` };
          log(`${entry.file}: FAILED ${out.error}`);
        }
        docMs.push(performance.now() - started);
        await writeFile(path.join(outDir, `${entry.file}.json`), JSON.stringify(out, null, 1));
      }),
    );
  } finally {
    await reader.close();
  }
  const stats = (xs: number[]): string => {
    const s = [...xs].sort((a, b) => a - b);
    return `n=${s.length} p50=${Math.round(percentile(s, 50))} ms p95=${Math.round(percentile(s, 95))} ms max=${Math.round(s[s.length - 1] ?? 0)} ms`;
  };
  log(`\n${manifest.length} documents, ${failed} failed, ${Math.round(performance.now() - t0)} ms wall with ${reader.pool.size} workers`);
  log(`OCR page time:       ${stats(ocrMs)}`);
  log(`PDF text page time:  ${stats(pdfPageMs)}`);
  log(`per-document latency (incl. queueing): ${stats(docMs)}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [dir, outDir] = process.argv.slice(2);
  if (!dir || !outDir) {
    console.error('usage: npm run dump-pages -- <dir-with-manifest.json> <outDir>');
    process.exit(2);
  }
  const engine = process.argv.includes('--ocr') ? process.argv[process.argv.indexOf('--ocr') + 1] : undefined;
  dumpPages(dir, outDir, console.log, engine === 'tesseract' ? { engine } : {}).catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
