import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { connect, createPglite } from '../../db/connect.ts';
import { migrateToLatest } from '../../db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDataDir: string;
  }
}

// Migrate one embedded database once, dump it, and let every test file load its own copy (≈0.8 s)
// instead of running initdb + migrations per file (≈4 s): immich's template-database idea.
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'partner-api-template-'));
  const pglite = await createPglite();
  const database = await connect({ pglite, ownsPglite: true });
  await migrateToLatest(database.db);
  const dump = await pglite.dumpDataDir('none');
  const file = path.join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('templateDataDir', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
