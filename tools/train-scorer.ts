// `npm run train [-- --seeds 101,102,103 --count 196 --eval-seed 201]`: fits the learned candidate scorers
// (src/extraction/fields/scoring/) on generated invoices and writes their weights to
// src/extraction/fields/scoring/weights/<field>.json, then reports, on a seed it did not train on, how often the rules
// and the model pick the right value (all documents, and those whose labels the engine's lists do not hold).
// Deterministic: the same seeds give the same bytes (the corpus is seeded and uses standard PDF fonts only).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { keyLabelsHeldApart } from '../eval/vocabulary/overlap.ts';
import { normName } from '../eval/extraction/score.ts';
import { readDoc } from '../src/extraction/fields/doc.ts';
import { NUMBER_FEATURES, numberFeatures } from '../src/extraction/fields/scoring/number-features.ts';
import { DATE_FEATURES, dateFeatures } from '../src/extraction/fields/scoring/date-features.ts';
import { addDays, paymentTermDays } from '../src/extraction/fields/payment-terms.ts';
import { rank, type RankingModel } from '../src/extraction/fields/scoring/model.ts';
import { splitInvoicePages } from '../src/extraction/fields/split.ts';
import { fit, type Group } from './train/conditional-logit.ts';
import { corpusPages, type TrainingDoc } from './train/corpus-pages.ts';

const WEIGHTS = fileURLToPath(new URL('../src/extraction/fields/scoring/weights', import.meta.url));

interface Task {
  field: 'invoiceNumber' | 'invoiceDate' | 'dueDate';
  features: string[];
  /**
   * Candidates of the document's first invoice: their values and feature rows, the rules' answer, and what stands
   * when the model picks none (the due date from payment terms).
   */
  read(doc: TrainingDoc): { values: string[]; rows: number[][]; ruled: string | null; fallback?: string | null };
  same(a: string, b: string): boolean;
}

const firstInvoice = (doc: TrainingDoc) => readDoc(splitInvoicePages(doc.pages)[0] ?? doc.pages);

/** The date candidates of a document, for both date tasks. */
function readDates(doc: TrainingDoc, field: 'invoiceDate' | 'dueDate') {
  const d = firstInvoice(doc);
  const { cands, rows, rules } = dateFeatures(d);
  const terms = !rules.due && rules.invoice ? paymentTermDays(d) : null;
  const termDue = terms && rules.invoice ? addDays(rules.invoice.value, terms.days) : null;
  const values = cands.map((c) => c.value);
  if (field === 'invoiceDate') return { values, rows, ruled: rules.invoice?.value ?? null };
  return { values, rows, ruled: rules.due?.value ?? termDue, fallback: termDue };
}

const TASKS: Task[] = [
  {
    field: 'invoiceNumber',
    features: NUMBER_FEATURES,
    read(doc) {
      const { cands, rows, ruled } = numberFeatures(firstInvoice(doc));
      return { values: cands.map((c) => c.value), rows, ruled: ruled[0]?.value ?? null };
    },
    same: (a, b) => normName(a) === normName(b),
  },
  { field: 'invoiceDate', features: DATE_FEATURES, read: (doc) => readDates(doc, 'invoiceDate'), same: (a, b) => a === b },
  { field: 'dueDate', features: DATE_FEATURES, read: (doc) => readDates(doc, 'dueDate'), same: (a, b) => a === b },
];

function expectedOf(doc: TrainingDoc, field: Task['field']): string | null {
  const v = doc.entry.expected[field];
  return v === undefined || v === null ? null : String(v);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { seeds: { type: 'string', default: '101,102,103' }, count: { type: 'string', default: '196' }, 'eval-seed': { type: 'string', default: '201' } },
  });
  const seeds = values.seeds.split(',').map(Number);
  const count = Number(values.count);
  const log = (s: string) => process.stderr.write(`${s}\n`);
  // Sequentially: each generation sets the corpus's vocabulary half for its own documents.
  const train: TrainingDoc[] = [];
  for (const s of seeds) train.push(...(await corpusPages(s, count, 0, log)));
  const held = await corpusPages(Number(values['eval-seed']), count, 1, log);
  const lines = [
    `# Learned candidate scorers: training report`,
    '',
    `Trained on seeds ${seeds.join(', ')} (${train.length} generated invoices, their held-apart labels from one half of the`,
    `corpus vocabulary's phrases); evaluated on seed ${values['eval-seed']} (${held.length}), which it did not see, its held-apart labels`,
    `from the other half: phrases the model never met. \`npm run eval\` measures the whole engine on other seeds.`,
    '',
  ];
  for (const task of TASKS) {
    const groups: Group[] = [];
    let unreachable = 0;
    for (const doc of train) {
      const expected = expectedOf(doc, task.field);
      const r = task.read(doc);
      const right = expected === null ? [] : r.values.flatMap((v, i) => (task.same(v, expected) ? [i] : []));
      // A value printed nowhere (a due date worked out from payment terms): no candidate is it, so "none" is right,
      // and the engine falls back as it should. For a field without a fallback, the document teaches nothing.
      if (expected !== null && right.length === 0) unreachable++;
      if (right.length || expected === null || 'fallback' in r) groups.push({ rows: r.rows, right });
    }
    const started = performance.now();
    const model = fit(task.field, task.features, groups);
    log(
      `${task.field}: ${groups.length} documents (${unreachable} without the value among the candidates) fitted in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    writeFileSync(path.join(WEIGHTS, `${task.field}.json`), `${JSON.stringify(model, null, 1)}\n`);
    lines.push(...report(task, model, held));
  }
  const text = lines.join('\n');
  writeFileSync(path.join(WEIGHTS, 'REPORT.md'), `${text}\n`);
  process.stdout.write(`${text}\n`);
}

function report(task: Task, model: RankingModel, docs: TrainingDoc[]): string[] {
  const tally = { all: [0, 0, 0, 0], heldApart: [0, 0, 0, 0], engine: [0, 0, 0, 0] };
  for (const doc of docs) {
    const expected = expectedOf(doc, task.field);
    const r = task.read(doc);
    const { p, none } = rank(model, r.rows);
    const best = p.reduce((bi, v, i) => (v > (p[bi] ?? -1) ? i : bi), -1);
    const picked = best >= 0 && p[best]! > none ? r.values[best]! : (r.fallback ?? null);
    const ok = (got: string | null) => (expected === null ? got === null : got !== null && task.same(got, expected));
    const reachable = expected === null || r.values.some((v) => task.same(v, expected));
    const split = doc.entry.keyLabels && keyLabelsHeldApart(doc.entry.keyLabels) ? tally.heldApart : tally.engine;
    for (const t of [tally.all, split]) {
      t[0]! += 1;
      t[1]! += ok(r.ruled) ? 1 : 0;
      t[2]! += ok(picked) ? 1 : 0;
      t[3]! += reachable ? 1 : 0;
    }
  }
  const pct = (a: number, n: number) => `${a}/${n} ${((100 * a) / Math.max(1, n)).toFixed(1)}%`;
  const row = (name: string, t: number[]) => `| ${name} | ${pct(t[1]!, t[0]!)} | ${pct(t[2]!, t[0]!)} | ${pct(t[3]!, t[0]!)} |`;
  return [
    `## ${task.field}`,
    '',
    '| documents | rules | model | value among the candidates |',
    '|---|---|---|---|',
    row('all', tally.all),
    row('held-apart labels', tally.heldApart),
    row('labels the engine knows', tally.engine),
    '',
  ];
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
