// Aggregates scored documents: per-field accuracy, line items, per-language, per-layout and per-producer tables, calibration
// (accuracy by confidence band) and latency per page. The JSON of `npm run eval -- --json` is this object.

import type { DocumentKind } from '../../src/extraction/types.ts';
import type { DocResult } from './run.ts';
import { BANDS, bandOf, HEADER_FIELDS, lineRate, type HeaderField } from './score.ts';

export interface Cell {
  n: number;
  correct: number;
  accuracy: number | null;
}
export interface LineSummary {
  documents: number;
  /** Mean over documents of the fraction of their lines matched. */
  meanMatchRate: number;
  /** Fraction of documents with every labelled line matched. */
  allLinesMatched: number;
  expectedLines: number;
  extractedLines: number;
  matchedLines: number;
  /** Matched lines / extracted lines. */
  precision: number | null;
  quantityAccuracy: number | null;
  unitPriceAccuracy: number | null;
}
export interface GroupRow {
  key: string;
  documents: number;
  /** All labelled header fields pooled. */
  header: Cell;
  fields: Partial<Record<HeaderField, Cell>>;
  lines: LineSummary | null;
}
export interface CalibrationRow {
  /** `extractionConfidence` (a document is right when all its key fields are), a field, or `lineItems` (all lines matched). */
  name: string;
  bands: Record<string, Cell>;
}
export interface Report {
  documents: number;
  readFailures: number;
  fields: Partial<Record<DocumentKind, Partial<Record<HeaderField, Cell>>>>;
  header: Partial<Record<DocumentKind, Cell>>;
  lineItems: Partial<Record<DocumentKind, LineSummary>>;
  byLanguage: GroupRow[];
  byLayout: GroupRow[];
  /** Real documents by the dataset they came from (SROIE scans, Latvian photos, e-invoice samples). */
  bySource: GroupRow[];
  byProducer: GroupRow[];
  calibration: Partial<Record<DocumentKind, CalibrationRow[]>>;
  latencyMsPerPage: Record<string, { pages: number; p50: number | null; p95: number | null }>;
  failures: string[];
  /** Generated documents by whether their key labels are held apart from the engine's lists (`held-apart`) or not (`engine`). */
  byLabels: GroupRow[];
  /** Generated documents by how the letterhead shows the seller's name (`text`, or only a `logo`). */
  bySellerName: GroupRow[];
  /** What the wrong values were, per field: of all documents (`all`) and of each `byLabels` group. */
  mistakes: Record<string, MistakeTable>;
}

/** Per field: what a wrong value was (eval/extraction/mistakes.ts) → how many times. */
export type MistakeTable = Partial<Record<HeaderField, Record<string, number>>>;

const cell = (n: number, correct: number): Cell => ({ n, correct, accuracy: n ? correct / n : null });
const ratio = (a: number, b: number) => (b ? a / b : null);
export const pctl = (xs: number[], p: number) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!);
};

function fieldCells(docs: DocResult[]): Partial<Record<HeaderField, Cell>> {
  const out: Partial<Record<HeaderField, Cell>> = {};
  for (const f of HEADER_FIELDS) {
    const scored = docs.filter((d) => d.fields[f]);
    if (scored.length) out[f] = cell(scored.length, scored.filter((d) => d.fields[f]!.ok).length);
  }
  return out;
}
const pooled = (cells: Partial<Record<HeaderField, Cell>>) => {
  const cs = Object.values(cells);
  return cell(
    cs.reduce((s, c) => s + c.n, 0),
    cs.reduce((s, c) => s + c.correct, 0),
  );
};

export function lineSummary(docs: DocResult[]): LineSummary | null {
  const scored = docs.filter((d) => d.lines);
  if (!scored.length) return null;
  const sum = (k: keyof NonNullable<DocResult['lines']>) => scored.reduce((s, d) => s + d.lines![k], 0);
  return {
    documents: scored.length,
    meanMatchRate: scored.reduce((s, d) => s + lineRate(d.lines!), 0) / scored.length,
    allLinesMatched: scored.filter((d) => d.lines!.matched === d.lines!.expected).length / scored.length,
    expectedLines: sum('expected'),
    extractedLines: sum('extracted'),
    matchedLines: sum('matched'),
    precision: ratio(sum('matched'), sum('extracted')),
    quantityAccuracy: ratio(sum('quantityRight'), sum('quantityLabelled')),
    unitPriceAccuracy: ratio(sum('unitPriceRight'), sum('unitPriceLabelled')),
  };
}

function mistakeTable(docs: DocResult[]): MistakeTable {
  const out: MistakeTable = {};
  for (const d of docs)
    for (const [f, r] of Object.entries(d.fields) as Array<[HeaderField, DocResult['fields'][HeaderField]]>) {
      if (!r || r.ok || !r.mistake) continue;
      const t = (out[f] ??= {});
      t[r.mistake] = (t[r.mistake] ?? 0) + 1;
    }
  return out;
}

function groups(docs: DocResult[], key: 'language' | 'layout' | 'source' | 'producer' | 'labels' | 'sellerName'): GroupRow[] {
  const keys = [...new Set(docs.map((d) => d[key]).filter((k): k is string => Boolean(k)))].sort();
  return keys.map((k) => {
    const ds = docs.filter((d) => d[key] === k);
    const fields = fieldCells(ds);
    return { key: k, documents: ds.length, header: pooled(fields), fields, lines: lineSummary(ds) };
  });
}

/** Accuracy by confidence band. Only claims count: a field the engine left empty has no confidence to check. */
function calibration(docs: DocResult[]): CalibrationRow[] {
  const rows: CalibrationRow[] = [];
  const row = (name: string, points: { confidence: number; ok: boolean }[]) => {
    if (!points.length) return;
    rows.push({
      name,
      bands: Object.fromEntries(
        BANDS.map((b) => {
          const inBand = points.filter((p) => bandOf(p.confidence) === b.name);
          return [b.name, cell(inBand.length, inBand.filter((p) => p.ok).length)];
        }),
      ),
    });
  };
  row(
    'extractionConfidence',
    docs.filter((d) => d.confidence !== null && d.keyRight !== null).map((d) => ({ confidence: d.confidence!, ok: d.keyRight! })),
  );
  for (const f of HEADER_FIELDS) {
    row(
      f,
      docs.flatMap((d) => {
        const r = d.fields[f];
        return r && r.got !== null && r.got !== undefined && r.confidence !== null ? [{ confidence: r.confidence, ok: r.ok }] : [];
      }),
    );
  }
  row(
    'lineItems',
    docs
      .filter((d) => d.lines && d.lines.extracted > 0 && d.lines.expected > 0 && d.linesConfidence !== null)
      .map((d) => ({ confidence: d.linesConfidence!, ok: d.lines!.matched === d.lines!.expected })),
  );
  return rows;
}

export function buildReport(docs: DocResult[]): Report {
  const kinds = [...new Set(docs.map((d) => d.kind))];
  const byKind = (k: DocumentKind) => docs.filter((d) => d.kind === k);
  const ms: Record<string, number[]> = {};
  for (const d of docs) {
    for (const p of d.pages) {
      (ms[`${d.kind}/${p.source}`] ??= []).push(p.ms);
      if (d.source && p.source === 'ocr') (ms[`${d.kind}/${p.source} ${d.source}`] ??= []).push(p.ms);
    }
  }
  const failures: string[] = [];
  for (const d of docs) {
    if (d.error) failures.push(`${d.file}: ${d.error}`);
    for (const [f, r] of Object.entries(d.fields))
      if (!r.ok) failures.push(`${d.file} ${f}: expected ${JSON.stringify(r.expected)} got ${JSON.stringify(r.got ?? null)}`);
    if (d.lines && d.lines.matched < d.lines.expected)
      failures.push(`${d.file} lineItems: matched ${d.lines.matched}/${d.lines.expected} (extracted ${d.lines.extracted})`);
  }
  return {
    documents: docs.length,
    readFailures: docs.filter((d) => d.error).length,
    fields: Object.fromEntries(kinds.map((k) => [k, fieldCells(byKind(k))])),
    header: Object.fromEntries(kinds.map((k) => [k, pooled(fieldCells(byKind(k)))])),
    lineItems: Object.fromEntries(kinds.flatMap((k) => ((s) => (s ? [[k, s]] : []))(lineSummary(byKind(k))))),
    byLanguage: groups(docs, 'language'),
    byLayout: groups(docs, 'layout'),
    bySource: groups(docs, 'source'),
    byProducer: groups(docs, 'producer'),
    calibration: Object.fromEntries(kinds.map((k) => [k, calibration(byKind(k))])),
    latencyMsPerPage: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, { pages: v.length, p50: pctl(v, 50), p95: pctl(v, 95) }])),
    failures,
    byLabels: groups(docs, 'labels'),
    bySellerName: groups(docs, 'sellerName'),
    mistakes: Object.fromEntries([
      ['all', mistakeTable(docs)],
      ...[...new Set(docs.map((d) => d.labels).filter(Boolean))].map((k) => [k, mistakeTable(docs.filter((d) => d.labels === k))]),
    ]),
  };
}
