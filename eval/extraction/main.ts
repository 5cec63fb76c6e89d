// `npm run eval`: extraction accuracy of the local engine on a labelled folder or on the generated corpus.
//
//   npm run eval -- <dir> [--json] [--verbose] [--text-only] [--pages <dir>] [--strip-attachments] [--languages …] [--layouts …]
//   npm run eval -- --corpus [--seed N] [--count M] [--languages de,fr] [--layouts boxed-table,…] [--labels <mode>] [--out <dir>] [--json] [--verbose]
//   npm run eval -- <dir> | --corpus … [--scan] [--photo] [--seed N]
//
// <dir> holds manifest.json ([{file, kind, expected, language?, layout?}]). Invoices are scored as delivered (an
// e-invoice the document carries first); --text-only scores the visible-text engine alone. --pages reads pre-read
// pages (tools/dump-pages.ts, the text engine alone) instead of running the reader. --strip-attachments evaluates copies of the PDFs
// without their embedded files (the e-invoice XML), so the text engine's own figure shows. --corpus generates
// invoices (corpus/) into --out or a temporary folder (removed afterwards) and evaluates them. Receipts are read by
// PP-OCR and then by the tesseract.js fallback, and a table puts the two side by side; --ocr ppocr|tesseract reads
// with that engine alone. --scan and --photo also read every PDF as a scan or a phone photo of its pages
// (corpus/degrade/, seeded by --seed and the file) and print those runs beside the visible-text one (which then
// reads as --text-only does), with the wall time of a read per page and per receipt; no engine comparison then.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeCorpus } from '../../corpus/generate.ts';
import { corpusOptions, option, tagFilters } from '../../corpus/options.ts';
import { stripFolder } from '../../corpus/strip-attachments.ts';
import type { OcrEngineName } from '../../src/extraction/ocr-engine.ts';
import type { PageText } from '../../src/extraction/types.ts';
import { askedModes, modeRun, runMode, type ModeRun } from './modes.ts';
import { printEngineComparison, printReport } from './print.ts';
import { printModes } from './print-modes.ts';
import { evaluateWith } from './read-with.ts';
import { buildReport } from './report.ts';
import { evaluate, type Entry } from './run.ts';

const VALUED = new Set(['--pages', '--seed', '--count', '--languages', '--layouts', '--labels', '--out', '--ocr']);
const log = (s: string) => process.stderr.write(`${s}\n`);

async function main(argv: string[]) {
  const json = argv.includes('--json');
  const verbose = argv.includes('--verbose');
  const pagesDir = option(argv, 'pages');
  const temp: string[] = [];
  let dir = argv.find((a, i) => !a.startsWith('--') && !VALUED.has(argv[i - 1] ?? ''));
  try {
    if (argv.includes('--corpus')) {
      const o = corpusOptions(argv);
      dir = option(argv, 'out') ?? (temp.push(await mkdtemp(path.join(os.tmpdir(), 'corpus-'))), temp.at(-1)!);
      const t0 = performance.now();
      const m = await writeCorpus(dir, o);
      log(`generated ${m.length} invoices (seed ${o.seed}) in ${dir} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    } else if (!dir)
      throw new Error('usage: eval <dataset dir> [--json] [--verbose] [--pages <dir>] [--strip-attachments] | eval --corpus [--seed N] [--count M] …');
    if (argv.includes('--strip-attachments')) {
      const out = (temp.push(await mkdtemp(path.join(os.tmpdir(), 'stripped-'))), temp.at(-1)!);
      const s = await stripFolder(dir, out);
      log(
        `stripped ${s.attachmentsRemoved} embedded file(s) from ${s.pdfs} PDF(s) into ${out}; text layer unchanged and no attachment left: ${s.problems.length ? s.problems.join('; ') : 'yes'}`,
      );
      dir = out;
    }
    const filters = tagFilters(argv);
    const manifest = (JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Entry[]).filter(
      (e) => (!filters.languages || filters.languages.includes(e.language as never)) && (!filters.layouts || filters.layouts.includes(e.layout as never)),
    );
    const asked = option(argv, 'ocr');
    if (asked !== undefined && asked !== 'ppocr' && asked !== 'tesseract') throw new Error('--ocr takes ppocr or tesseract');
    const engine: OcrEngineName = asked ?? 'ppocr';
    const modes = askedModes(argv);
    if (modes.length && pagesDir) throw new Error('--scan and --photo read documents: they do not go with --pages');
    // Beside scans and photos, the text run is the visible-text engine's (a scan carries no e-invoice).
    const textOnly = argv.includes('--text-only') || modes.length > 0;
    const t0 = performance.now();
    const reading = pagesDir ? null : await evaluateWith(engine, dir, manifest, textOnly, modes.length > 0);
    const docs = reading ? reading.docs : await evaluate(manifest, (e) => readPages(pagesDir!, e));
    const report = buildReport(docs);
    log(`evaluated ${docs.length} documents in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const runs: ModeRun[] = [];
    for (const m of modes) runs.push(await runMode(m, dir, manifest, corpusOptions(argv).seed, (d, es) => evaluateWith(engine, d, es, true, true), log));
    if (reading && runs.length) runs.unshift(modeRun('text', reading));
    // Receipts are also read by the fallback engine unless one engine (or a scan or photo run) was asked for: the two side by side.
    const receipts = manifest.filter((e) => e.kind === 'receipt');
    const compare = !pagesDir && !asked && !modes.length && receipts.length > 0;
    const fallback = compare ? buildReport((await evaluateWith('tesseract', dir, receipts, textOnly)).docs) : null;
    const modeReports = Object.fromEntries(runs.map((r) => [r.mode, { ...(r.mode === 'text' ? {} : { report: r.report }), speed: r.speed }]));
    if (json) console.log(JSON.stringify({ ...report, ...(fallback ? { fallback } : {}), ...(runs.length ? { modes: modeReports } : {}) }, null, 2));
    else
      console.log(
        printReport(report, verbose) +
          (fallback ? `\n\n${printEngineComparison({ ppocr: buildReport(docs.filter((d) => d.kind === 'receipt')), tesseract: fallback })}` : '') +
          (runs.length ? `\n\n${printModes(runs, verbose)}` : ''),
      );
  } finally {
    for (const t of temp) await rm(t, { recursive: true, force: true });
  }
}

/** Pages dumped by tools/dump-pages.ts. */
async function readPages(pagesDir: string, e: Entry): Promise<PageText[]> {
  const r = JSON.parse(await readFile(path.join(pagesDir, `${e.file}.json`), 'utf8')) as { pages?: PageText[]; error?: string };
  if (!r.pages) throw new Error(r.error ?? 'no pages');
  return r.pages;
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
