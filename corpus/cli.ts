// `npm run corpus -- generate --out <dir> [--seed N] [--count M] [--languages de,fr] [--layouts boxed-table,…]`
// writes generated invoices and their manifest.json (then `npm run eval -- <dir>` measures them).

import { writeCorpus } from './generate.ts';
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
    console.log(`${manifest.length} invoices (${pages} pages) in ${out} in ${((performance.now() - t0) / 1000).toFixed(1)} s; seed ${o.seed}`);
    console.log(`TrueType fonts found: ${installedTrueTypeFamilies().join(', ') || 'none (standard PDF fonts only)'}`);
    return;
  }
  throw new Error('usage: corpus generate --out <dir> [--seed N] [--count M] [--languages …] [--layouts …]');
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
