import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, inject, test } from 'vitest';
import { loadConfig } from '../../src/platform/config.ts';
import { createEmbedder } from '../../src/platform/embeddings/index.ts';

test('local (the default) reads DATA_DIR/embeddings, or EMBEDDINGS_CACHE_DIR', async () => {
  const cacheDir = inject('wordVectorCacheDir');
  const dataDir = path.dirname(cacheDir);
  expect(loadConfig({ DATA_DIR: dataDir }).embedder).toEqual({ kind: 'local', cacheDir: path.join(dataDir, 'embeddings') });
  const e = await createEmbedder(loadConfig({ DATA_DIR: '/nonexistent', EMBEDDINGS_CACHE_DIR: cacheDir }));
  expect(e).toMatchObject({ id: 'local:wink-sg-100d+ngram-256+legal-forms', dimensions: 356 });
  await expect(createEmbedder(loadConfig({ DATA_DIR: path.join(dataDir, 'nowhere') }))).rejects.toThrow(/word-vector cache .* is missing/);
});

test('openai uses EMBEDDINGS_URL, EMBEDDINGS_MODEL, EMBEDDINGS_API_KEY and EMBEDDINGS_DIMENSIONS', async () => {
  const auth: (string | undefined)[] = [];
  const server = http.createServer(async (req, res) => {
    auth.push(req.headers.authorization);
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const { input } = JSON.parse(raw) as { input: string[] };
    res.end(JSON.stringify({ data: input.map((_, index) => ({ index, embedding: [3, 4] })) }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const config = loadConfig({ EMBEDDER: 'openai', EMBEDDINGS_URL: url, EMBEDDINGS_MODEL: 'bge-small', EMBEDDINGS_API_KEY: 'k', EMBEDDINGS_DIMENSIONS: '2' });
    const e = await createEmbedder(config);
    expect(e).toMatchObject({ id: 'openai:bge-small', dimensions: 2 });
    const [v] = await e.embed(['hello']);
    expect(Array.from(v!)).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(auth).toEqual(['Bearer k']);
  } finally {
    server.close();
  }
});
