import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { connect, createPglite } from '../../src/platform/db/connect.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { autoSharedBuffers } from '../../src/platform/db/pglite-buffers.ts';
import { buildWordVectorCache } from '../../src/platform/embeddings/word-vector-cache.build.ts';
import { wordVectorCacheExists } from '../../src/platform/embeddings/word-vector-cache.ts';
import { createEmptyDatabase, dropRun, type PostgresTemplate, urlOf } from '../helpers/postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The embedded template's dump ('' when the run is on PostgreSQL). */
    templateDataDir: string;
    /** The PostgreSQL template of this run (TEST_DATABASE_URL), or null: test databases are embedded. */
    postgres: PostgresTemplate | null;
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

// Migrate one database once and let every test file copy it instead of running migrations per file: immich's
// template-database idea. Embedded: a dumped PGlite data directory that each file loads (≈0.8 s instead of ≈4 s for
// initdb + migrations). TEST_DATABASE_URL (a real PostgreSQL): a template database that each file copies with
// CREATE DATABASE … TEMPLATE, reached through the production `pg` path.
export default async function setup(project: TestProject) {
  const wordVectors = wordVectorCache();
  wordVectors.catch(() => {}); // awaited below; this only keeps a failure from being reported as unhandled first
  const serverUrl = process.env.TEST_DATABASE_URL;
  let teardown: () => Promise<void>;
  if (serverUrl) {
    const template: PostgresTemplate = { url: serverUrl, prefix: `partner_api_test_${randomBytes(4).toString('hex')}` };
    const name = await createEmptyDatabase(template, 'template');
    const database = await connect({ databaseUrl: urlOf(serverUrl, name), poolSize: 1 });
    try {
      await migrateToLatest(database.db);
    } finally {
      await database.close();
    }
    project.provide('postgres', template);
    project.provide('templateDataDir', '');
    teardown = () => dropRun(template);
  } else {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'partner-api-template-'));
    const pglite = await createPglite({ sharedBuffers: autoSharedBuffers(0) }); // as test/helpers/db.ts opens its copies
    const database = await connect({ pglite, ownsPglite: true });
    await migrateToLatest(database.db);
    const dump = await pglite.dumpDataDir('none');
    const file = path.join(dir, 'template.tar');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    await database.close();
    project.provide('postgres', null);
    project.provide('templateDataDir', file);
    teardown = async () => rmSync(dir, { recursive: true, force: true });
  }
  project.provide('wordVectorCacheDir', await wordVectors);
  return teardown;
}
