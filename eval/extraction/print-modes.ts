// The visible-text, scan and photo runs side by side: per-field accuracy, line items, header accuracy per group,
// and the wall-clock speed of a read.

import type { ModeRun, Percentiles } from './modes.ts';
import type { Cell, GroupRow, Report } from './report.ts';
import { HEADER_FIELDS } from './score.ts';

const pct = (x: number | null | undefined) => (x === null || x === undefined ? '-' : `${(x * 100).toFixed(1)}%`);
const W = 18;
const cellText = (c: Cell | undefined) => (c ? `${c.correct}/${c.n} ${pct(c.accuracy)}` : '-').padStart(W);
const row = (label: string, cells: string[]) => `  ${label.padEnd(28)}${cells.join('')}`;

function kindTable(kind: 'invoice' | 'receipt', runs: ModeRun[]): string[] {
  if (!runs.some((r) => r.report.fields[kind])) return [];
  const out = [`${kind}s`.padEnd(30) + runs.map((r) => r.mode.padStart(W)).join('')];
  for (const f of HEADER_FIELDS) {
    if (runs.some((r) => r.report.fields[kind]?.[f]))
      out.push(
        row(
          f,
          runs.map((r) => cellText(r.report.fields[kind]?.[f])),
        ),
      );
  }
  out.push(
    row(
      'header (pooled)',
      runs.map((r) => cellText(r.report.header[kind])),
    ),
  );
  if (runs.some((r) => r.report.lineItems[kind])) {
    out.push(
      row(
        'lines: mean match',
        runs.map((r) => pct(r.report.lineItems[kind]?.meanMatchRate).padStart(W)),
      ),
    );
    out.push(
      row(
        'lines: every line matched',
        runs.map((r) => pct(r.report.lineItems[kind]?.allLinesMatched).padStart(W)),
      ),
    );
  }
  return out;
}

/** Header accuracy (all labelled fields pooled) per group of `pick`, one column per run. */
function groupTable(title: string, runs: ModeRun[], pick: (r: Report) => GroupRow[]): string[] {
  const keys = [...new Set(runs.flatMap((r) => pick(r.report).map((g) => g.key)))];
  if (!keys.length) return [];
  const out = ['', `header by ${title}`.padEnd(30) + runs.map((r) => r.mode.padStart(W)).join('')];
  for (const k of keys)
    out.push(
      row(
        k,
        runs.map((r) => cellText(pick(r.report).find((g) => g.key === k)?.header)),
      ),
    );
  return out;
}

const timing = (p: Percentiles) => (p.n ? `${p.p50} / ${p.p90} (${p.n})` : '-').padStart(W + 4);

export function printModes(runs: ModeRun[], verbose: boolean): string {
  const rows = [`visible text, scans and photos side by side (right/n, accuracy)`, ...kindTable('invoice', runs), ...kindTable('receipt', runs)];
  rows.push(...groupTable('layout family', runs, (r) => r.byLayout), ...groupTable('language', runs, (r) => r.byLanguage));
  rows.push(...groupTable('source', runs, (r) => r.bySource));
  rows.push('', `wall time of one read (ms), one document at a time: p50 / p90 (n)`.padEnd(30));
  rows.push(`  ${''.padEnd(28)}${runs.map((r) => r.mode.padStart(W + 4)).join('')}`);
  rows.push(`  ${'per page (not receipts)'.padEnd(28)}${runs.map((r) => timing(r.speed.page)).join('')}`);
  rows.push(`  ${'per receipt'.padEnd(28)}${runs.map((r) => timing(r.speed.receipt)).join('')}`);
  for (const r of runs) if (r.report.readFailures) rows.push(`read failures (${r.mode}): ${r.report.readFailures}`);
  if (verbose) for (const r of runs.filter((x) => x.mode !== 'text')) rows.push('', `failures (${r.mode}):`, ...r.report.failures.map((f) => `  ${f}`));
  return rows.join('\n');
}
