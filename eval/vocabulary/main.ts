// `npm run eval:labels [-- --json]`: the overlap between the corpus's label vocabularies and the engine's phrase
// lists, per field, for the issue-14 vocabulary (corpus/locales, the `engine` and `classic` label modes) and for the
// held-apart one (corpus/vocabulary). Lists every corpus phrase the engine's lists contain, and where.

import { KEY_LABELS } from '../../corpus/vocabulary/index.ts';
import { localeEntries, vocabularyEntries } from './entries.ts';
import { measureOverlap, type FieldOverlap } from './overlap.ts';

/** The key labels, and the words of title lines that carry the number and date. */
const KEY_FIELDS: readonly string[] = [...KEY_LABELS, 'titleLine'];
const pct = (a: number, b: number) => (b ? `${((a / b) * 100).toFixed(1)}%` : '-');

function table(title: string, rows: FieldOverlap[], keyFields: readonly string[]): string[] {
  const out = [title, `  ${'field'.padEnd(16)} ${'phrases'.padStart(8)} ${'in engine lists'.padStart(16)} ${'engine reads it'.padStart(16)}`];
  const line = (name: string, n: number, inLists: number, strong: number) =>
    `  ${name.padEnd(16)} ${String(n).padStart(8)} ${`${inLists} (${pct(inLists, n)})`.padStart(16)} ${`${strong} (${pct(strong, n)})`.padStart(16)}`;
  for (const r of rows) out.push(line(r.field, r.phrases, r.inEngineLists, r.readsStrong));
  const key = rows.filter((r) => keyFields.includes(r.field));
  const sum = (k: 'phrases' | 'inEngineLists' | 'readsStrong') => key.reduce((s, r) => s + r[k], 0);
  if (key.length) out.push(line('key fields', sum('phrases'), sum('inEngineLists'), sum('readsStrong')));
  return out;
}

function main(argv: string[]) {
  const before = measureOverlap(localeEntries());
  const key = measureOverlap(vocabularyEntries('key'));
  const other = measureOverlap(vocabularyEntries('other'));
  if (argv.includes('--json')) {
    console.log(JSON.stringify({ locales: before, heldApart: key, other }, null, 1));
    return;
  }
  const listed = (rows: FieldOverlap[]) =>
    rows.flatMap((r) =>
      r.overlapping.length ? [`  ${r.field}: ${r.overlapping.map((o) => `${o.lang} "${o.phrase}" (${o.lists.join(', ')})`).join('; ')}`] : [],
    );
  const out = [
    'label phrases the engine\'s lists contain (case, accents and punctuation aside); "engine reads it": its matcher finds a',
    'strong label of the same field inside the phrase',
    '',
    ...table('issue-14 vocabulary (corpus/locales: label modes `classic` and `engine`)', before, KEY_FIELDS),
    '',
    ...table('held-apart vocabulary, key fields (corpus/vocabulary: label mode `held-apart`)', key, KEY_FIELDS),
    '',
    ...table('corpus vocabulary, other labels (both new modes; not held apart)', other, []),
    '',
    "held-apart key-field phrases in the engine's lists:",
    ...(listed(key).length ? listed(key) : ['  none']),
    '',
    "issue-14 key-field phrases in the engine's lists:",
    ...listed(before.filter((r) => KEY_FIELDS.includes(r.field))),
  ];
  console.log(out.join('\n'));
}

main(process.argv.slice(2));
