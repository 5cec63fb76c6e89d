// Evaluation harness: `npm run eval -- <dir> [--json] [--pages <dir>] [--text-only]`.
// Reads <dir>/manifest.json, runs the engine on each document (or loads pre-read pages), prints per-field accuracy,
// line-item match rate and per-page latency (text-layer vs OCR pages, invoices vs receipts). Invoices are scored as
// delivered (e-invoice first); `--text-only` (and `--pages`) scores the visible text engine alone, as if the
// documents carried no e-invoice.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { extractInvoiceFields } from './fields/invoice.ts';
import { extractReceiptFields } from './fields/receipt.ts';
import { deliverInvoices } from './local.extractor.ts';
import type { ReadResult } from './reader.ts';
import type { DocumentKind, ExtractedLineItem, PageText } from './types.ts';

interface Expected {
  vendorName?: string;
  invoiceNumber?: string;
  invoiceDate?: string;
  dueDate?: string;
  subtotal?: number;
  tax?: number;
  total?: number;
  currency?: string;
  lineItems?: { description: string; quantity?: number; unitPrice?: number; amount: number }[];
}
interface Entry {
  file: string;
  kind: DocumentKind;
  expected: Expected;
}
type Got = Record<string, unknown> & { lineItems: ExtractedLineItem[] };

const FIELDS = ['vendorName', 'invoiceNumber', 'invoiceDate', 'dueDate', 'subtotal', 'tax', 'total', 'currency'] as const;

export const normName = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
const tokens = (s: string) => new Set(normName(s).split(' ').filter(Boolean));

export function fieldMatches(field: string, expected: unknown, got: unknown): boolean {
  if (got === null || got === undefined) return false;
  if (typeof expected === 'number') return typeof got === 'number' && Math.abs(got - expected) < 0.005;
  if (field.endsWith('Date')) return got === expected;
  return normName(String(got)) === normName(String(expected));
}

/** Fraction of expected line items matched (same amount to the cent, description tokens mostly shared). */
export function lineItemMatchRate(expected: NonNullable<Expected['lineItems']>, got: ExtractedLineItem[]): number {
  const free = [...got];
  let hit = 0;
  for (const e of expected) {
    const et = tokens(e.description);
    const k = free.findIndex((g) => {
      if (g.total === null || Math.abs(g.total - e.amount) >= 0.005) return false;
      const gt = tokens(g.description ?? '');
      const shared = [...et].filter((t) => gt.has(t)).length;
      return et.size === 0 || shared / et.size >= 0.5;
    });
    if (k >= 0) {
      hit++;
      free.splice(k, 1);
    }
  }
  return expected.length ? hit / expected.length : 1;
}

function toGot(kind: DocumentKind, pages: PageText[], read: ReadResult | null): Got {
  if (kind === 'invoice') {
    const [first] = read ? deliverInvoices(read).invoices : extractInvoiceFields(pages);
    return (first ?? { lineItems: [] }) as unknown as Got;
  }
  const r = extractReceiptFields(pages);
  return { ...r, vendorName: r.merchantName, invoiceDate: r.receiptDate } as unknown as Got;
}

const pctl = (xs: number[], p: number) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!);
};

async function main(argv: string[]) {
  const dir = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--pages');
  if (!dir) throw new Error('usage: eval <dataset dir> [--json] [--pages <dir>] [--verbose] [--text-only]');
  const json = argv.includes('--json');
  const textOnly = argv.includes('--text-only');
  const verbose = argv.includes('--verbose');
  const pagesDir = argv.includes('--pages') ? argv[argv.indexOf('--pages') + 1] : undefined;
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Entry[];
  const reader = pagesDir ? null : (await import('./reader.ts')).createDocumentReader();
  const acc: Record<string, Record<string, { n: number; ok: number }>> = { invoice: {}, receipt: {} };
  const li: Record<string, number[]> = { invoice: [], receipt: [] };
  const ms: Record<string, number[]> = {};
  const failures: string[] = [];
  try {
    for (const e of manifest) {
      let pages: PageText[];
      let read: ReadResult | null = null;
      try {
        if (pagesDir) {
          const read = JSON.parse(await readFile(join(pagesDir, `${e.file}.json`), 'utf8')) as { pages?: PageText[]; error?: string };
          if (!read.pages) throw new Error(read.error ?? 'no pages');
          pages = read.pages;
        } else {
          read = await reader!.read(new Uint8Array(await readFile(join(dir, e.file))), e.kind);
          pages = read.pages;
          if (textOnly) read = null;
        }
      } catch (err) {
        failures.push(`${e.file}: read failed: ${(err as Error).message}`);
        pages = [];
      }
      const t0 = performance.now();
      let got: Got;
      try {
        got = toGot(e.kind, pages, read);
      } catch (err) {
        failures.push(`${e.file}: ${(err as Error).message}`);
        got = { lineItems: [] };
      }
      const understand = (performance.now() - t0) / Math.max(1, pages.length);
      for (const p of pages) (ms[`${e.kind}/${p.source}`] ??= []).push(p.ms + understand);
      for (const f of FIELDS) {
        const exp = e.expected[f];
        // Receipts carry no invoice number / due date in our output shape: not scored.
        if (exp === undefined || (e.kind === 'receipt' && (f === 'invoiceNumber' || f === 'dueDate'))) continue;
        const cell = (acc[e.kind]![f] ??= { n: 0, ok: 0 });
        cell.n++;
        if (fieldMatches(f, exp, got[f])) cell.ok++;
        else failures.push(`${e.file} ${f}: expected ${JSON.stringify(exp)} got ${JSON.stringify(got[f] ?? null)}`);
      }
      if (e.expected.lineItems) li[e.kind]!.push(lineItemMatchRate(e.expected.lineItems, got.lineItems ?? []));
    }
  } finally {
    await reader?.close();
  }
  const report = {
    fields: Object.fromEntries(
      Object.entries(acc).map(([k, fs]) => [k, Object.fromEntries(Object.entries(fs).map(([f, c]) => [f, { n: c.n, correct: c.ok, accuracy: c.ok / c.n }]))]),
    ),
    lineItemMatchRate: Object.fromEntries(Object.entries(li).filter(([, v]) => v.length).map(([k, v]) => [k, v.reduce((a, b) => a + b, 0) / v.length])),
    latencyMsPerPage: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, { pages: v.length, p50: pctl(v, 50), p95: pctl(v, 95) }])),
    failures,
  };
  if (json) return console.log(JSON.stringify(report, null, 2));
  const rows: string[] = [];
  for (const [kind, fs] of Object.entries(report.fields)) {
    rows.push(`${kind}s`);
    for (const [f, c] of Object.entries(fs)) rows.push(`  ${f.padEnd(16)} ${String(c.correct).padStart(3)}/${String(c.n).padEnd(3)} ${(c.accuracy * 100).toFixed(1).padStart(6)}%`);
    const r = report.lineItemMatchRate[kind];
    if (r !== undefined) rows.push(`  ${'lineItems'.padEnd(16)} match rate ${(r * 100).toFixed(1)}%`);
  }
  rows.push('latency per page (read + understand)');
  for (const [k, v] of Object.entries(report.latencyMsPerPage)) rows.push(`  ${k.padEnd(22)} pages ${String(v.pages).padStart(3)}  p50 ${v.p50} ms  p95 ${v.p95} ms`);
  console.log(rows.join('\n'));
  if (verbose) console.log(`\nfailures:\n  ${failures.join('\n  ')}`);
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('eval.ts')) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
