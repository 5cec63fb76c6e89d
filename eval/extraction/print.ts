// The eval report as text tables.

import type { Cell, GroupRow, LineSummary, Report } from './report.ts';
import { BANDS, HEADER_FIELDS } from './score.ts';

const pct = (x: number | null | undefined, digits = 1) => (x === null || x === undefined ? '-' : `${(x * 100).toFixed(digits)}%`);
const SHORT: Record<string, string> = {
  vendorName: 'vendor',
  invoiceNumber: 'number',
  invoiceDate: 'date',
  dueDate: 'due',
  subtotal: 'subtot',
  tax: 'tax',
  total: 'total',
  currency: 'curr',
};

function linesLine(s: LineSummary): string {
  return (
    `  ${'lineItems'.padEnd(20)} mean match ${pct(s.meanMatchRate)}, every line matched ${pct(s.allLinesMatched)} of ${s.documents}; ` +
    `lines ${s.matchedLines}/${s.expectedLines} matched, precision ${pct(s.precision)} (${s.extractedLines} extracted); ` +
    `of matched: quantity ${pct(s.quantityAccuracy)}, unit price ${pct(s.unitPriceAccuracy)}`
  );
}

function groupTable(title: string, rows: GroupRow[]): string[] {
  if (!rows.length) return [];
  const fields = HEADER_FIELDS.filter((f) => rows.some((r) => r.fields[f]));
  const kw = Math.max(20, ...rows.map((r) => r.key.length + 3));
  const head = [
    title.padEnd(kw),
    'docs'.padStart(5),
    'header'.padStart(7),
    ...fields.map((f) => SHORT[f]!.padStart(7)),
    'lines'.padStart(7),
    'all-ln'.padStart(7),
  ];
  const out = [head.join(' ')];
  const cellPct = (c: Cell | undefined) => (c ? pct(c.accuracy, 0) : '-').padStart(7);
  for (const r of rows) {
    out.push(
      [
        `  ${r.key}`.padEnd(kw),
        String(r.documents).padStart(5),
        pct(r.header.accuracy).padStart(7),
        ...fields.map((f) => cellPct(r.fields[f])),
        pct(r.lines?.meanMatchRate, 0).padStart(7),
        pct(r.lines?.allLinesMatched, 0).padStart(7),
      ].join(' '),
    );
  }
  return out;
}

export function printReport(report: Report, verbose: boolean): string {
  const rows: string[] = [];
  for (const [kind, fs] of Object.entries(report.fields)) {
    const count = Object.values(fs).reduce((m, c) => Math.max(m, c.n), 0);
    rows.push(`${kind}s (${report.documents ? count : 0} labelled)${' '.repeat(4)}right/n   accuracy`);
    for (const [f, c] of Object.entries(fs)) rows.push(`  ${f.padEnd(20)} ${`${c.correct}/${c.n}`.padStart(9)} ${pct(c.accuracy).padStart(9)}`);
    const h = report.header[kind as keyof typeof report.header];
    if (h) rows.push(`  ${'header (pooled)'.padEnd(20)} ${`${h.correct}/${h.n}`.padStart(9)} ${pct(h.accuracy).padStart(9)}`);
    const s = report.lineItems[kind as keyof typeof report.lineItems];
    if (s) rows.push(linesLine(s));
  }
  if (report.byLanguage.length || report.byLayout.length)
    rows.push('', ...groupTable('by language', report.byLanguage), '', ...groupTable('by layout family', report.byLayout));
  if (report.bySource.length) rows.push('', ...groupTable('by source', report.bySource));
  if (report.byProducer.length) rows.push('', ...groupTable('by producer style', report.byProducer));
  rows.push(...printLabelSplit(report));
  for (const [kind, cal] of Object.entries(report.calibration)) {
    if (!cal.length) continue;
    rows.push('', `calibration, ${kind}s: accuracy by confidence band (right/n); only values the engine returned count`);
    rows.push(['  '.padEnd(22), ...BANDS.map((b) => b.name.padStart(18))].join(''));
    for (const r of cal) {
      rows.push(
        [
          `  ${r.name}`.padEnd(22),
          ...BANDS.map((b) => {
            const c = r.bands[b.name]!;
            return (c.n ? `${pct(c.accuracy, 0)} (${c.correct}/${c.n})` : '-').padStart(18);
          }),
        ].join(''),
      );
    }
    // The promise partners rely on: a value given ≥ 90 is right ≥ 97% of the time.
    const short = cal.filter((r) => (r.bands['90-100']!.accuracy ?? 1) < 0.97);
    rows.push(
      short.length
        ? `  ≥ 90 band below 97% for: ${short.map((r) => `${r.name} ${pct(r.bands['90-100']!.accuracy)}`).join(', ')}`
        : '  ≥ 90 band: every row right ≥ 97% of the time',
    );
  }
  rows.push('', 'latency per page (read + understand)');
  for (const [k, v] of Object.entries(report.latencyMsPerPage))
    rows.push(`  ${k.padEnd(44)} pages ${String(v.pages).padStart(4)}  p50 ${v.p50} ms  p95 ${v.p95} ms`);
  if (report.readFailures) rows.push(`read failures: ${report.readFailures}`);
  if (verbose) rows.push('', 'failures:', ...report.failures.map((f) => `  ${f}`));
  return rows.join('\n');
}

/**
 * Receipts read by each OCR engine, side by side: merchant, date and total per source, and latency per receipt
 * (`reports` maps an engine's name to the report of the same receipts read with it).
 */
export function printEngineComparison(reports: Record<string, Report>): string {
  const rows = ['receipts by OCR engine'.padEnd(44) + ['docs', 'merchant', 'date', 'total', 'p50 ms', 'p95 ms'].map((h) => h.padStart(9)).join('')];
  for (const [engine, r] of Object.entries(reports)) {
    const all: GroupRow = { key: 'all', documents: r.documents, header: r.header.receipt!, fields: r.fields.receipt ?? {}, lines: null };
    for (const g of [all, ...r.bySource.filter((s) => s.fields.total)]) {
      const lat = r.latencyMsPerPage[g.key === 'all' ? 'receipt/ocr' : `receipt/ocr ${g.key}`];
      const cells = [g.fields.vendorName, g.fields.invoiceDate, g.fields.total].map((c) => pct(c?.accuracy).padStart(9));
      rows.push(
        `  ${engine} ${g.key}`.padEnd(44) +
          String(g.documents).padStart(9) +
          cells.join('') +
          String(lat?.p50 ?? '-').padStart(9) +
          String(lat?.p95 ?? '-').padStart(9),
      );
    }
  }
  return rows.join('\n');
}

/**
 * Issue 48: the per-field table of documents whose key labels the engine's lists do not contain beside the others,
 * the seller-name split, and what the wrong values were (all documents, held-apart ones in brackets).
 */
export function printLabelSplit(report: Report): string[] {
  const rows: string[] = [];
  const groups = report.byLabels;
  if (groups.length) {
    rows.push('', `key labels: held-apart = none of the document's key labels is in the engine's phrase lists`);
    rows.push(['  '.padEnd(22), ...groups.map((g) => `${g.key} (${g.documents} docs)`.padStart(26))].join(''));
    const cell = (c: Cell | undefined) => (c ? `${c.correct}/${c.n} ${pct(c.accuracy).padStart(7)}` : '-').padStart(26);
    for (const f of HEADER_FIELDS.filter((f) => groups.some((g) => g.fields[f])))
      rows.push([`  ${f}`.padEnd(22), ...groups.map((g) => cell(g.fields[f]))].join(''));
    rows.push([`  header (pooled)`.padEnd(22), ...groups.map((g) => cell(g.header))].join(''));
    rows.push([`  every line matched`.padEnd(22), ...groups.map((g) => pct(g.lines?.allLinesMatched).padStart(26))].join(''));
  }
  if (report.bySellerName.length > 1) rows.push('', ...groupTable('seller name shown as', report.bySellerName));
  const all = report.mistakes.all ?? {};
  const held = report.mistakes['held-apart'] ?? {};
  const fields = HEADER_FIELDS.filter((f) => Object.keys(all[f] ?? {}).length);
  if (fields.length && groups.length) {
    rows.push('', 'what the wrong values were: count over all documents (held-apart documents in brackets)');
    for (const f of fields) {
      const kinds = Object.entries(all[f]!).sort((a, b) => b[1] - a[1]);
      rows.push(`  ${f.padEnd(16)} ${kinds.map(([k, n]) => `${k} ${n} (${held[f]?.[k] ?? 0})`).join(', ')}`);
    }
  }
  return rows;
}
