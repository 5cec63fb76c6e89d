import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { connect, createPglite } from '../../src/platform/db/connect.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { buildWordVectorCache } from '../../src/platform/embeddings/word-vector-cache.build.ts';
import { wordVectorCacheExists } from '../../src/platform/embeddings/word-vector-cache.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDataDir: string;
    wordVectorCacheDir: string;
  }
}

// The local embedder's word-vector cache takes ~10 s to build from the 307 MB package JSON (in a child process, so
// it overlaps the template database below). It depends only on the pinned package, so it is kept across runs in
// node_modules/.cache, which goes away with the package.
const WORD_VECTOR_CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/partner-api/embeddings', import.meta.url));

async function wordVectorCache(): Promise<string> {
  if (!wordVectorCacheExists(WORD_VECTOR_CACHE_DIR)) await buildWordVectorCache(WORD_VECTOR_CACHE_DIR);
  return WORD_VECTOR_CACHE_DIR;
}

// Migrate one embedded database once, dump it, and let every test file load its own copy (≈0.8 s)
// instead of running initdb + migrations per file (≈4 s): immich's template-database idea.
export default async function setup(project: TestProject) {
  const wordVectors = wordVectorCache();
  wordVectors.catch(() => {}); // awaited below; this only keeps a failure from being reported as unhandled first
  const dir = mkdtempSync(path.join(os.tmpdir(), 'partner-api-template-'));
  const pglite = await createPglite();
  const database = await connect({ pglite, ownsPglite: true });
  await migrateToLatest(database.db);
  const dump = await pglite.dumpDataDir('none');
  const file = path.join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('templateDataDir', file);
  project.provide('wordVectorCacheDir', await wordVectors);
  return () => rmSync(dir, { recursive: true, force: true });
}
