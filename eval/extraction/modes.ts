// `--scan` and `--photo`: the same documents read as a scanner or a phone would hand them over (corpus/degrade/),
// each mode a run of its own beside the visible-text run, with its wall-clock speed per page and per receipt.

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DEGRADE_MODES, type DegradeMode } from '../../corpus/degrade/document.ts';
import { degradeFolder } from '../../corpus/degrade/folder.ts';
import { NARROW } from '../../corpus/layouts.ts';
import type { Reading } from './read-with.ts';
import { buildReport, pctl, type Report } from './report.ts';
import type { DocResult, Entry } from './run.ts';

export type ModeName = 'text' | DegradeMode;

export interface ModeRun {
  mode: ModeName;
  report: Report;
  speed: Speed;
}

export interface Percentiles {
  n: number;
  p50: number | null;
  p90: number | null;
}
/** Wall time of a read: per page of the documents that are not receipts (a document's time over its pages), per receipt. */
export interface Speed {
  page: Percentiles;
  receipt: Percentiles;
}

/** The modes asked for on the command line, in a fixed order. */
export const askedModes = (argv: readonly string[]): DegradeMode[] => DEGRADE_MODES.filter((m) => argv.includes(`--${m}`));

/** Receipts: the dev set's, and the corpus's till receipts and card slips (labelled as invoices). */
const isReceipt = (d: DocResult) => d.kind === 'receipt' || NARROW.has(d.layout as never);

const percentiles = (xs: number[]): Percentiles => ({ n: xs.length, p50: pctl(xs, 50), p90: pctl(xs, 90) });

export function speedOf(r: Reading): Speed {
  const perPage: number[] = [];
  const perReceipt: number[] = [];
  for (const d of r.docs) {
    const ms = r.wallMs.get(d.file);
    if (ms === undefined || d.error) continue;
    if (isReceipt(d)) perReceipt.push(ms);
    else perPage.push(...d.pages.map(() => ms / d.pages.length));
  }
  return { page: percentiles(perPage), receipt: percentiles(perReceipt) };
}

export const modeRun = (mode: ModeName, r: Reading): ModeRun => ({ mode, report: buildReport(r.docs), speed: speedOf(r) });

/** Degrades the PDFs of `entries` into a temporary folder, reads them with `read`, and removes the folder. */
export async function runMode(
  mode: DegradeMode,
  dir: string,
  entries: Entry[],
  seed: number,
  read: (dir: string, entries: Entry[]) => Promise<Reading>,
  log: (s: string) => void,
): Promise<ModeRun> {
  const out = await mkdtemp(path.join(os.tmpdir(), `${mode}-`));
  try {
    const d = await degradeFolder(dir, entries, out, mode, seed);
    log(`${mode}: ${d.entries.length} documents (${d.pages} pages) in ${(d.ms / 1000).toFixed(1)} s (seed ${seed}); ${d.skipped} not PDFs left out`);
    const t0 = performance.now();
    const run = modeRun(mode, await read(out, d.entries));
    log(`${mode}: read in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return run;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
