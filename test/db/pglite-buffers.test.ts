import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, expect, test } from 'vitest';
import { connect } from '../../src/platform/db/connect.ts';
import { sharedBuffersFor } from '../../src/platform/db/pglite-buffers.ts';

// PGLITE_SHARED_BUFFERS=auto (the default): the embedded database's pool follows the size of its tables and indexes
// on disk, between 32MB (an empty database, the idle-memory target) and 256MB (a 100k-document search index fits).

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pglite-buffers-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A data directory whose base/ holds files of these sizes in MB (sparse: nothing is written). */
function pgdataWith(...sizesMb: number[]): string {
  const pgdata = tempDir();
  const db = path.join(pgdata, 'base', '5');
  mkdirSync(db, { recursive: true });
  sizesMb.forEach((mb, i) => {
    const file = path.join(db, String(16_384 + i));
    writeFileSync(file, '');
    truncateSync(file, mb * 2 ** 20);
  });
  writeFileSync(path.join(pgdata, 'postgresql.conf'), 'x'.repeat(1000)); // outside base/: not counted
  return pgdata;
}

test('auto: the data’s size in MB (rounded up), at least 32MB and at most 256MB; a size given is kept', () => {
  expect(sharedBuffersFor('auto', path.join(tempDir(), 'missing'))).toBe('32MB');
  expect(sharedBuffersFor('auto', pgdataWith(8, 4))).toBe('32MB');
  expect(sharedBuffersFor('auto', pgdataWith(100, 40.5))).toBe('141MB');
  expect(sharedBuffersFor('auto', pgdataWith(186, 140, 90))).toBe('256MB');
  expect(sharedBuffersFor('64MB', pgdataWith(186, 140, 90))).toBe('64MB');
});

test('a data directory opened with auto runs with the pool its size calls for', async () => {
  const dataDir = tempDir();
  const database = await connect({ dataDir, sharedBuffers: 'auto', inThisThread: true });
  try {
    const shown = await sql<{ sharedBuffers: string }>`show shared_buffers`.execute(database.db);
    expect(shown.rows[0]!.sharedBuffers).toBe('32MB');
  } finally {
    await database.close();
  }
  // The same directory grown past 64MB (a file in its base/, as a large table would be) opens with a larger pool.
  const big = path.join(dataDir, 'pgdata', 'base', 'grown');
  writeFileSync(big, '');
  truncateSync(big, 80 * 2 ** 20);
  const again = await connect({ dataDir, sharedBuffers: 'auto', inThisThread: true });
  try {
    const shown = await sql<{ sharedBuffers: string }>`show shared_buffers`.execute(again.db);
    expect(Number.parseInt(shown.rows[0]!.sharedBuffers, 10)).toBeGreaterThan(80);
  } finally {
    await again.close();
  }
});
