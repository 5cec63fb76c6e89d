// Benchmark of the local embedder: `npm run bench -- embeddings`.
// Prints the cache build time and size, the cache load time with RSS before/after, and embed throughput for
// 1,000 invoice-like texts. Builds into a temporary directory (≈10 s), which it removes afterwards.

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createLocalEmbedder } from '../src/platform/embeddings/local.embedder.ts';
import { buildWordVectorCache } from '../src/platform/embeddings/word-vector-cache.build.ts';

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const rss = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
};

const vendors = ['Sysco Corporation', 'Home Depot', 'Staples Inc', 'Blue Bottle Coffee', 'Shell Station 4471', 'Northwind Traders', 'Marriott Hotel'];
const items = [
  'romaine lettuce case',
  'roma tomatoes 25 lb',
  'yellow onions',
  'copy paper 10 ream',
  'toner cartridge',
  'drywall screws',
  'cappuccino',
  'latte grande',
  'diesel fuel',
  'room night',
  'parking',
  'hammer',
  'extension cord',
  'chicken breast',
  'olive oil',
];
let seed = 42;
const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;

function invoiceText(i: number): string {
  const lines = [`INVOICE #${10_000 + i}`, vendors[rand(vendors.length)]!, `Date 2024-${1 + rand(12)}-${1 + rand(28)}`];
  for (let k = 0, n = 3 + rand(8); k < n; k++)
    lines.push(`${items[rand(items.length)]} SKU-${rand(99_999)} ${1 + rand(9)} x ${(rand(10_000) / 100).toFixed(2)}`);
  lines.push(`Subtotal ${(rand(100_000) / 100).toFixed(2)} Tax ${(rand(1000) / 100).toFixed(2)} TOTAL DUE ${(rand(100_000) / 100).toFixed(2)}`);
  return lines.join('\n');
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'partner-api-bench-embeddings-'));
try {
  const rssBeforeBuild = rss();
  const built = await buildWordVectorCache(dir);
  console.log(`cache build:  ${(built.ms / 1000).toFixed(1)} s, ${built.words} words, ${mb(built.bytes)} (${path.basename(built.file)})`);
  console.log(`              RSS of this process ${mb(rssBeforeBuild)} → ${mb(rss())} (the JSON is parsed in a child process)`);

  const rssBeforeLoad = rss();
  const t0 = performance.now();
  const embedder = await createLocalEmbedder(dir);
  const loadMs = performance.now() - t0;
  const rssAfterLoad = rss();
  console.log(`cache load:   ${loadMs.toFixed(0)} ms; RSS ${mb(rssBeforeLoad)} → ${mb(rssAfterLoad)} (+${mb(rssAfterLoad - rssBeforeLoad)})`);

  const texts = Array.from({ length: 1000 }, (_, i) => invoiceText(i));
  const avgChars = texts.reduce((s, t) => s + t.length, 0) / texts.length;
  await embedder.embed(texts.slice(0, 50)); // warm-up
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t = performance.now();
    await embedder.embed(texts);
    runs.push(performance.now() - t);
  }
  const best = Math.min(...runs);
  console.log(
    `embed:        1,000 texts (avg ${avgChars.toFixed(0)} chars) in ${best.toFixed(0)} ms best of 5 → ${Math.round(1000 / (best / 1000)).toLocaleString('en-US')} texts/s, ${embedder.dimensions} dims`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
