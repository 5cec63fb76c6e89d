import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, expect, inject, test } from 'vitest';
import { cosine } from '../../src/platform/embeddings/embedder.ts';
import { BUILD_CACHE_COMMAND, createLocalEmbedder, LOCAL_EMBEDDER_ID, type LocalEmbedder } from '../../src/platform/embeddings/local.embedder.ts';

let embedder: LocalEmbedder;

beforeAll(async () => {
  embedder = await createLocalEmbedder(inject('wordVectorCacheDir'));
});

async function cos(a: string, b: string): Promise<number> {
  const [va, vb] = await embedder.embed([a, b]);
  return cosine(va!, vb!);
}

// The load time is a benchmark figure (`npm run bench`); here only a bound far above it, so a shared loaded
// machine cannot fail the test while rebuilding the cache instead of loading it (tens of seconds) still does.
test('loads the shared cache: 100k words, 100 word dims + 256 n-gram buckets', () => {
  expect(embedder.id).toBe(LOCAL_EMBEDDER_ID);
  expect(embedder.vocabularySize).toBe(100_000);
  expect(embedder.dimensions).toBe(356);
  expect(embedder.loadMs).toBeLessThan(10_000);
});

test('one unit vector per text, in order; the same text always gives the same vector', async () => {
  const texts = ['Invoice 1042 from ACME Supplies', 'café crème', 'zzqx-77'];
  const vectors = await embedder.embed(texts);
  expect(vectors).toHaveLength(3);
  for (const v of vectors) {
    expect(v).toHaveLength(356);
    expect(Math.hypot(...v)).toBeCloseTo(1, 5);
  }
  const again = await embedder.embed([texts[2]!, texts[0]!]);
  expect(Array.from(again[0]!)).toEqual(Array.from(vectors[2]!));
  expect(Array.from(again[1]!)).toEqual(Array.from(vectors[0]!));
});

test('an empty text gets a zero vector; a text without known words still gets an n-gram vector', async () => {
  const [empty, punctuation, unknown] = await embedder.embed(['', ' -- / ', 'xqzvbt-4471']);
  expect(empty!.every((x) => x === 0)).toBe(true);
  expect(punctuation!.every((x) => x === 0)).toBe(true);
  expect(unknown!.slice(0, 100).every((x) => x === 0)).toBe(true);
  expect(Math.hypot(...unknown!)).toBeCloseTo(1, 5);
});

test('related phrases are closer than unrelated ones', async () => {
  const produce = 'romaine lettuce case tomatoes onions';
  expect(await cos(produce, 'fresh vegetables')).toBeGreaterThan((await cos(produce, 'office supplies')) + 0.2);
  const coffee = await cos('espresso', 'cappuccino latte coffee');
  const hardware = await cos('espresso', 'hammer nails screws drill bits');
  expect(coffee).toBeGreaterThan(hardware + 0.2);
  expect(await cos('diesel fuel gallons', 'gas station')).toBeGreaterThan(await cos('diesel fuel gallons', 'restaurant dinner'));
});

test('n-grams match vendor names, SKUs and accents across spellings', async () => {
  expect(await cos('SYSCO CORP', 'Sysco Corporation')).toBeGreaterThan(0.6);
  expect(await cos('SYSCO CORP', 'Sysco Corporation')).toBeGreaterThan((await cos('SYSCO CORP', 'Staples Inc')) + 0.2);
  const sku = 'Invoice SKU A-1234-XL widget';
  expect(await cos(sku, 'a-1234-xl')).toBeGreaterThan((await cos(sku, 'b-9876-s')) + 0.3);
  // Tokens no vocabulary has: only the n-grams can tell these apart.
  expect(await cos('xk4471', 'Part XK4471 hinge bracket')).toBeGreaterThan((await cos('xk4471', 'Part QM9902 hinge bracket')) + 0.2);
  expect(await cos('Northwnd Tradrs', 'NORTHWND TRADRS LLC')).toBeGreaterThan((await cos('Northwnd Tradrs', 'Contoso Suppliers LLC')) + 0.3);
  expect(await cos('Crème Brûlée Café', 'creme brulee cafe')).toBeCloseTo(1, 5);
});

test('legal forms say nothing of what a supplier sells: left out, unless the text has nothing else', async () => {
  expect(await cos('CITY PHARMACY SDN BHD', 'city pharmacy')).toBeCloseTo(1, 5);
  expect(await cos('Acme Holzbau GmbH & Co. KG', 'Acme Holzbau')).toBeCloseTo(1, 5);
  expect(await cos('medicine', 'CITY PHARMACY SDN BHD. Supplies')).toBeGreaterThan(0.35);
  // A query of legal forms only is still a query: it finds the texts that hold them.
  const [gmbh] = await embedder.embed(['GmbH']);
  expect(Math.hypot(...gmbh!)).toBeCloseTo(1, 5);
  expect(await cos('GmbH', 'gmbh')).toBeCloseTo(1, 5);
});

test('a missing cache is a clear error that names the build command', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'partner-api-no-cache-'));
  try {
    await expect(createLocalEmbedder(dir)).rejects.toThrow(BUILD_CACHE_COMMAND);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
