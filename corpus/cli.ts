// `npm run corpus -- generate --out <dir> [--seed N] [--count M] [--languages de,fr] [--layouts boxed-table,…]
// [--labels mixed|held-apart|engine|classic]` writes generated invoices and their manifest.json (then `npm run eval --
// <dir>` measures them); `--labels classic` writes the issue-14 corpus byte for byte (corpus/extras.ts).
// `npm run corpus -- strip <dir> <out-dir>` copies a labelled folder with the PDFs' embedded files removed.
// `npm run corpus -- degrade <dir> <out-dir> --mode scan|photo [--seed N]` writes its PDFs as scans or photos.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEGRADE_MODES, type DegradeMode } from './degrade/document.ts';
import { degradeFolder } from './degrade/folder.ts';
import { writeCorpus } from './generate.ts';
import { stripFolder } from './strip-attachments.ts';
import { corpusOptions, option } from './options.ts';
import { installedTrueTypeFamilies } from './pdf/fonts.ts';

async function main(argv: string[]) {
  const [command] = argv;
  if (command === 'generate') {
    const out = option(argv, 'out');
    if (!out) throw new Error('generate needs --out <dir>');
    const o = corpusOptions(argv);
    const t0 = performance.now();
    const manifest = await writeCorpus(out, o);
    const pages = manifest.reduce((s, e) => s + e.pages, 0);
    const held = manifest.filter((e) => e.labels === 'held-apart').length;
    console.log(
      `${manifest.length} invoices (${pages} pages) in ${out} in ${((performance.now() - t0) / 1000).toFixed(1)} s; seed ${o.seed}, labels ${o.labels ?? 'mixed'} (${held} held apart)`,
    );
    console.log(`TrueType fonts found: ${installedTrueTypeFamilies().join(', ') || 'none (standard PDF fonts only)'}`);
    return;
  }
  if (command === 'strip') {
    const [, from, to] = argv;
    if (!from || !to) throw new Error('strip needs <dir> <out-dir>');
    const s = await stripFolder(from, to);
    console.log(`${s.files} files (${s.pdfs} PDFs) copied to ${to}; ${s.attachmentsRemoved} embedded file(s) removed`);
    console.log(s.problems.length ? `problems:\n  ${s.problems.join('\n  ')}` : 'every PDF: the same words at the same places, no attachment left');
    if (s.problems.length) process.exitCode = 1;
    return;
  }
  if (command === 'degrade') {
    const [, from, to] = argv;
    const mode = option(argv, 'mode') as DegradeMode | undefined;
    if (!from || !to || !mode || !DEGRADE_MODES.includes(mode)) throw new Error('degrade needs <dir> <out-dir> --mode scan|photo');
    const { seed } = corpusOptions(argv);
    const manifest = JSON.parse(await readFile(path.join(from, 'manifest.json'), 'utf8')) as { file: string }[];
    const d = await degradeFolder(from, manifest, to, mode, seed);
    console.log(
      `${d.entries.length} documents (${d.pages} pages) as ${mode}s in ${to} in ${(d.ms / 1000).toFixed(1)} s; ${d.skipped} not PDFs left out; seed ${seed}`,
    );
    return;
  }
  throw new Error(
    'usage: corpus generate --out <dir> [--seed N] [--count M] [--languages …] [--layouts …] [--labels …] | corpus strip <dir> <out-dir> | corpus degrade <dir> <out-dir> --mode scan|photo [--seed N]',
  );
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
