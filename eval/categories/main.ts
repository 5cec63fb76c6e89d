// `npm run eval:categories [-- <items.json>]`: accuracy of the cost-category classifier on labelled line items
// (default eval/category-items.json: [{description, category}]), lexicon only vs lexicon + embeddings.
import { readFile } from 'node:fs/promises';
import { loadConfig } from '../../src/platform/config.ts';
import { openEmbedder } from '../../src/platform/embeddings/open.ts';
import { createCategorizer } from '../../src/extraction/categorizer.ts';

interface Item {
  description: string;
  category: string;
}

const file = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? new URL('../category-items.json', import.meta.url).pathname;
const items = JSON.parse(await readFile(file, 'utf8')) as Item[];
const embedder = await openEmbedder(loadConfig(), { info: (_o, msg) => console.error(msg) });

async function score(label: string, categorize: ReturnType<typeof createCategorizer>) {
  const got = await categorize(items, {});
  const wrong = items.flatMap((it, i) => (got[i] === it.category ? [] : [`${it.description}: expected ${it.category}, got ${got[i]}`]));
  console.log(`${label.padEnd(26)} ${items.length - wrong.length}/${items.length}  ${(((items.length - wrong.length) / items.length) * 100).toFixed(1)}%`);
  return wrong;
}

await score('lexicon only', createCategorizer(null));
const wrong = await score('lexicon + embeddings', createCategorizer(embedder));
if (process.argv.includes('--verbose')) console.log(`\nwrong:\n  ${wrong.join('\n  ')}`);
