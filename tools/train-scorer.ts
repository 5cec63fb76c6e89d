// `npm run train [-- --seeds 101,102,103 --count 196 --eval-seed 201]`: fits the learned candidate scorers
// (src/extraction/fields/scoring/) on generated invoices and writes their weights to
// src/extraction/fields/scoring/weights/<field>.json, then reports, on a seed it did not train on (its held-apart
// labels from the half of the corpus vocabulary it did not see), how often the rules and the engine with the models
// get each field right. Deterministic: the same seeds give the same bytes (seeded corpus, standard PDF fonts only).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { keyLabelsHeldApart } from '../eval/vocabulary/overlap.ts';
import { fit, type Group } from './train/conditional-logit.ts';
import { corpusPages, type TrainingDoc } from './train/corpus-pages.ts';
import { expectedOf, type Models, TASKS, type Task } from './train/tasks.ts';

const WEIGHTS = fileURLToPath(new URL('../src/extraction/fields/scoring/weights', import.meta.url));

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
  const models: Models = {};
  for (const task of TASKS) {
    const started = performance.now();
    const { groups, unreachable } = trainingGroups(task, train);
    models[task.field] = fit(task.field, task.features, groups);
    writeFileSync(path.join(WEIGHTS, `${task.field}.json`), `${JSON.stringify(models[task.field], null, 1)}\n`);
    log(
      `${task.field}: ${groups.length} documents (${unreachable} with the value printed nowhere) fitted in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  const lines = [
    `# Learned candidate scorers: training report`,
    '',
    `Trained on seeds ${seeds.join(', ')} (${train.length} generated invoices, their held-apart labels from one half of the`,
    `corpus vocabulary's phrases); evaluated on seed ${values['eval-seed']} (${held.length}), which it did not see, its held-apart labels`,
    `from the other half: phrases the model never met. "engine" is the engine's answer with the models (the amounts chosen`,
    'together); `npm run eval` measures the whole engine on other seeds.',
    '',
    ...TASKS.flatMap((task) => report(task, models, held)),
  ];
  const text = lines.join('\n');
  writeFileSync(path.join(WEIGHTS, 'REPORT.md'), `${text}\n`);
  process.stdout.write(`${text}\n`);
}

/**
 * One group per document: its candidates and which hold the right value. A value printed nowhere teaches "none" when
 * the engine then falls back (the due date from terms, an amount completed by arithmetic); otherwise nothing.
 */
function trainingGroups(task: Task, docs: TrainingDoc[]): { groups: Group[]; unreachable: number } {
  const groups: Group[] = [];
  let unreachable = 0;
  for (const doc of docs) {
    const expected = expectedOf(doc, task.field);
    const r = task.read(doc);
    const right = expected === null ? [] : r.values.flatMap((v, i) => (task.same(v, expected) ? [i] : []));
    if (expected !== null && right.length === 0) unreachable++;
    if (right.length || expected === null || r.fallback) groups.push({ rows: r.rows, right });
  }
  return { groups, unreachable };
}

function report(task: Task, models: Models, docs: TrainingDoc[]): string[] {
  const tally = { all: [0, 0, 0, 0], heldApart: [0, 0, 0, 0], engine: [0, 0, 0, 0] };
  for (const doc of docs) {
    const expected = expectedOf(doc, task.field);
    const r = task.read(doc);
    const ok = (got: string | null) => (expected === null ? got === null : got !== null && task.same(got, expected));
    const reachable = expected === null || r.values.some((v) => task.same(v, expected));
    const split = doc.entry.keyLabels && keyLabelsHeldApart(doc.entry.keyLabels) ? tally.heldApart : tally.engine;
    const got = r.decide(models);
    for (const t of [tally.all, split]) {
      t[0]! += 1;
      t[1]! += ok(r.ruled) ? 1 : 0;
      t[2]! += ok(got) ? 1 : 0;
      t[3]! += reachable ? 1 : 0;
    }
  }
  const pct = (a: number, n: number) => `${a}/${n} ${((100 * a) / Math.max(1, n)).toFixed(1)}%`;
  const row = (name: string, t: number[]) => `| ${name} | ${pct(t[1]!, t[0]!)} | ${pct(t[2]!, t[0]!)} | ${pct(t[3]!, t[0]!)} |`;
  return [
    `## ${task.field}`,
    '',
    '| documents | rules | engine with the model | value among the candidates (or none right) |',
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
