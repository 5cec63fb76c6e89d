import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { CamelCasePlugin, Kysely, PostgresDialect, sql } from 'kysely';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, createPglite, type Database } from '../../src/platform/db/connect.ts';
import { PGliteThread } from '../../src/platform/db/pglite-thread.ts';
import { VectorValue } from '../../src/platform/db/vector-value.ts';
import { TEST_SHARED_BUFFERS } from '../helpers/db.ts';

// The embedded driver (Kysely on PGlite's query API) must return what the `pg` path returns for the same SQL:
// both run here against one PGlite, the `pg` one through pglite-socket. The server's embedded database runs on its
// own thread (a data directory): that one must answer the same.
let pglite: Awaited<ReturnType<typeof createPglite>>;
let server: PGLiteSocketServer;
let inThread: Database;
let ownThread: Database;
let wire: Database;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pglite-thread-'));

beforeAll(async () => {
  pglite = await createPglite({ sharedBuffers: TEST_SHARED_BUFFERS });
  await pglite.exec('create extension if not exists vector');
  server = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: 4 });
  await server.start();
  wire = await connect({ databaseUrl: `postgres://postgres:postgres@${server.getServerConn()}/postgres?sslmode=disable`, poolSize: 1 });
  inThread = await connect({ pglite });
  ownThread = await connect({ dataDir });
  await sql`create extension if not exists vector`.execute(ownThread.db);
});
afterAll(async () => {
  await inThread?.close();
  await ownThread?.close();
  rmSync(dataDir, { recursive: true, force: true });
  await wire?.close();
  await server?.stop();
  await pglite?.close();
});

const VALUES = sql`select
  ${'2026-03-09'}::date as day, now()::date - now()::date as days, '2026-03-09T10:11:12.345Z'::timestamptz as at,
  '2026-03-09 10:11:12'::timestamp as local_at, 12.50::numeric(10,2) as money, 9007199254740993::int8 as big,
  3::int4 as small, 1.5::float8 as ratio, true as yes, ${JSON.stringify({ a: [1, 'x'] })}::jsonb as doc,
  array['a', 'b"c']::text[] as tags, array[1, 2]::int4[] as ints, array['2026-01-02']::date[] as days_list,
  '[1,2.5,3]'::vector(3) as vec, '\\x00ff'::bytea as raw, null::text as nothing, '1 day'::interval as span,
  gen_random_uuid() is not null as has_uuid, ${Buffer.from([1, 2, 255])}::bytea as param_raw,
  ${new Date('2026-03-09T10:11:12.345Z')}::timestamptz as param_at, ${['x', 'y']}::text[] as param_tags,
  ${{ k: 1 }}::jsonb as param_doc, ${3}::int as param_int, ${true}::boolean as param_bool,
  ${JSON.stringify({ snake_key: [{ inner_key: 1 }, 'x_y'], other_key: null })}::jsonb as nested_doc,
  array[${JSON.stringify({ a_b: 1 })}::jsonb] as doc_list,
  ${new VectorValue(Float32Array.of(1, 2.5, -3, 0.1))}::vector(4) as param_vec,
  ${'Café Zürich – 東京 🍣'}::text as non_ascii, 'plain ascii after it' as ascii_after, ${JSON.stringify({ ключ: 'värde' })}::jsonb as non_ascii_doc,
  array['naïve', 'ascii']::text[] as non_ascii_tags`;

describe.each([
  ['on this thread', () => inThread],
  ['on its own thread', () => ownThread],
])('the embedded database %s', (_name, database) => {
  test('parses and prepares values exactly as pg does', async () => {
    const direct = database();
    const [a, b] = await Promise.all([VALUES.execute(direct.db), VALUES.execute(wire.db)]);
    expect(a.rows).toEqual(b.rows);
    expect(Buffer.isBuffer((a.rows[0] as { raw?: unknown }).raw)).toBe(true);
    // A bytea column is a Buffer in every row, also when the first row's is null.
    const raws = await sql<{ raw: Buffer | null }>`select * from (values (null::bytea), (${Buffer.from([7, 8])}::bytea)) as t(raw)`.execute(direct.db);
    expect(raws.rows.map((r) => r.raw && Buffer.isBuffer(r.raw) && r.raw.toString('hex'))).toEqual([null, '0708']);
    // A vector of the wrong dimension is Postgres' error, and the connection goes on.
    const wrong = sql`select ${new VectorValue(Float32Array.of(1, 2))}::vector(3) as v`;
    await expect(wrong.execute(direct.db)).rejects.toThrow(/expected 3 dimensions, not 2/);
    await expect(wrong.execute(wire.db)).rejects.toThrow(/expected 3 dimensions, not 2/);
    expect(a.rows[0]).toMatchObject({
      day: '2026-03-09',
      money: '12.50',
      big: '9007199254740993',
      vec: '[1,2.5,3]',
      // Sent as pgvector's binary form here, as its text by pg: the same float4 values either way.
      paramVec: '[1,2.5,-3,0.1]',
      tags: ['a', 'b"c'],
      doc: { a: [1, 'x'] },
      paramDoc: { k: 1 },
      // Keys of json values are renamed as Kysely's CamelCasePlugin renames them, on both paths.
      nestedDoc: { snakeKey: [{ innerKey: 1 }, 'x_y'], otherKey: null },
      docList: [{ aB: 1 }],
      nonAscii: 'Café Zürich – 東京 🍣',
      asciiAfter: 'plain ascii after it',
      nonAsciiDoc: { ключ: 'värde' },
      nonAsciiTags: ['naïve', 'ascii'],
    });
  });

  test('affected rows, multi-statement scripts, errors and transactions', async () => {
    const direct = database();
    await sql`create table dialect_probe (id int primary key, note text)`.execute(direct.db);
    const inserted = await direct.db
      .insertInto('dialect_probe' as never)
      .values([{ id: 1 }, { id: 2 }] as never)
      .executeTakeFirst();
    expect(inserted.numInsertedOrUpdatedRows).toBe(2n);
    const updated = await direct.db
      .updateTable('dialect_probe' as never)
      .set({ note: 'x' } as never)
      .executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(2n);
    await expect(sql`insert into dialect_probe (id) values (${1})`.execute(direct.db)).rejects.toMatchObject({
      code: '23505',
      constraint: 'dialect_probe_pkey',
    });
    await sql.raw('insert into dialect_probe (id) values (10); insert into dialect_probe (id) values (11)').execute(direct.db);
    await expect(
      direct.db.transaction().execute(async (trx) => {
        await sql`insert into dialect_probe (id) values (${20})`.execute(trx);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    // Concurrent transactions are serialised: each sees only its own writes until it commits.
    await Promise.all(
      [30, 40].map((id) =>
        direct.db.transaction().execute(async (trx) => {
          await sql`insert into dialect_probe (id) values (${id})`.execute(trx);
          await new Promise((r) => setTimeout(r, 20));
          await sql`insert into dialect_probe (id) values (${id + 1})`.execute(trx);
        }),
      ),
    );
    // The pool (libraries that speak pg) waits for the driver's connection and vice versa.
    const viaPool = direct.pool.query('select count(*)::int as n from dialect_probe');
    const { rows } = await sql<{ id: number }>`select id from dialect_probe order by id`.execute(direct.db);
    expect(rows.map((r) => r.id)).toEqual([1, 2, 10, 11, 30, 31, 40, 41]);
    expect((await viaPool).rows[0]).toEqual({ n: 8 });
  });

  test('a statement outside a transaction waits for it and never runs inside it; the next ones queue in order', async () => {
    const direct = database();
    await sql`create table order_probe (id int primary key)`.execute(direct.db);
    let outside: Promise<{ rows: { n: number }[] }> | undefined;
    await direct.db.transaction().execute(async (trx) => {
      await sql`insert into order_probe (id) values (${1})`.execute(trx);
      // Issued while the transaction holds the connection: it must neither see nor join the uncommitted row.
      outside = sql<{ n: number }>`select count(*)::int as n from order_probe`.execute(direct.db);
      await new Promise((r) => setTimeout(r, 20));
      await sql`insert into order_probe (id) values (${2})`.execute(trx);
    });
    expect((await outside!).rows[0]).toEqual({ n: 2 });
    // Many statements sent at once (each without waiting for the previous answer on its own thread) run in order.
    const inserts = Array.from({ length: 50 }, (_, i) => sql`insert into order_probe (id) values (${i + 10})`.execute(direct.db));
    const counts = Array.from({ length: 5 }, () => sql<{ n: number }>`select count(*)::int as n from order_probe`.execute(direct.db));
    await Promise.all(inserts);
    expect((await Promise.all(counts)).map((r) => r.rows[0]!.n)).toEqual([52, 52, 52, 52, 52]);
    // An error in one statement fails only that statement.
    const [bad, good] = await Promise.allSettled([sql`select 1/0`.execute(direct.db), sql<{ one: number }>`select 1 as one`.execute(direct.db)]);
    expect(bad).toMatchObject({ status: 'rejected', reason: { code: '22012', message: 'division by zero' } });
    expect(good).toMatchObject({ status: 'fulfilled', value: { rows: [{ one: 1 }] } });
  });

  test('a statement is prepared once; a stale one is prepared again; at most 200 stay prepared', async () => {
    const direct = database();
    await sql`create table prepared_probe (id int primary key)`.execute(direct.db);
    await sql`insert into prepared_probe values (1)`.execute(direct.db);
    const read = () => sql<Record<string, unknown>>`select * from prepared_probe where id = ${1}`.execute(direct.db);
    const preparedCount = async (like: string) =>
      (await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement like ${like}`.execute(direct.db)).rows[0]!.n;
    for (let i = 0; i < 3; i++) expect((await read()).rows).toEqual([{ id: 1 }]);
    expect(await preparedCount('select * from prepared_probe%')).toBe(1);
    // A new column changes what `select *` returns: Postgres refuses the cached plan (0A000), the driver prepares again.
    await sql`alter table prepared_probe add column note text default 'x'`.execute(direct.db);
    expect((await read()).rows).toEqual([{ id: 1, note: 'x' }]);
    // Statements dropped behind the driver's back (26000 on the next run): prepared again.
    await sql`deallocate all`.execute(direct.db);
    expect((await read()).rows).toEqual([{ id: 1, note: 'x' }]);
    // In a transaction block the stale statement fails that transaction, as with any driver; the next run recovers.
    await sql`alter table prepared_probe add column extra int default 2`.execute(direct.db);
    await expect(direct.db.transaction().execute(async (trx) => sql`select * from prepared_probe where id = ${1}`.execute(trx))).rejects.toMatchObject({
      code: '0A000',
    });
    expect((await read()).rows).toEqual([{ id: 1, note: 'x', extra: 2 }]);
    // A statement that does not parse is not kept; a statement that fails when it runs is, and stays correct.
    await expect(sql`select nope from prepared_probe where id = ${1}`.execute(direct.db)).rejects.toMatchObject({ code: '42703' });
    await expect(sql`select 1 / ${0}::int`.execute(direct.db)).rejects.toMatchObject({ code: '22012' });
    expect((await sql<{ q: number }>`select 4 / ${2}::int as q`.execute(direct.db)).rows).toEqual([{ q: 2 }]);
    // Many distinct statements: the least recently used are closed.
    for (let i = 0; i < 230; i++) await sql`select ${i}::int + ${sql.lit(i)} as n`.execute(direct.db);
    expect(await preparedCount('select $1::int + %')).toBeLessThanOrEqual(200);
    expect((await sql<{ n: number }>`select ${1}::int + ${sql.lit(229)} as n`.execute(direct.db)).rows).toEqual([{ n: 230 }]);
  });
});

test('the pg path builds the rows Kysely’s CamelCasePlugin builds from node-postgres’ own rows', async () => {
  // Kysely as it stood on `pg` before (the plugin renaming node-postgres' row objects), on the same pool.
  const reference = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: wire.pool as pg.Pool }), plugins: [new CamelCasePlugin()] });
  const several = sql`select * from (values (1, null::jsonb, 'a_b'), (2, '{"x_y": {"deep_key": [1, {"k_k": 2}]}}'::jsonb, null))
    as t(row_id, some_doc, plain_text)`;
  for (const query of [VALUES, several, sql`select 1 as one where false`, sql`select ${'x'}::text as "Mixed_Case", 2 as "_lead"`]) {
    const [ours, theirs] = await Promise.all([query.execute(wire.db), query.execute(reference)]);
    expect(ours.rows).toEqual(theirs.rows);
  }
  expect((await several.execute(wire.db)).rows[1]).toEqual({ rowId: 2, someDoc: { xY: { deepKey: [1, { kK: 2 }] } }, plainText: null });
  // A script (no parameters: the simple protocol) answers its last statement's rows, as on the embedded database.
  expect((await sql.raw(`select 1 as first_one; select 2 as second_one`).execute(wire.db)).rows).toEqual([{ secondOne: 2 }]);
  // Writes report their command and count.
  await sql`create temporary table renamed_probe (probe_id int)`.execute(wire.db);
  const inserted = await sql`insert into renamed_probe values (1), (2)`.execute(wire.db);
  expect(inserted).toMatchObject({ numAffectedRows: 2n, rows: [] });
});

test('the database thread: refuses statements once closed, and a directory it cannot open fails its start', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pglite-thread-closed-'));
  const thread = await PGliteThread.start({ dataDir: path.join(dir, 'pgdata'), sharedBuffers: TEST_SHARED_BUFFERS });
  expect((await thread.run('select 1 as one')).rows).toEqual([{ one: 1 }]);
  await thread.close();
  await expect(thread.run('select 1')).rejects.toThrow(/the embedded database's thread ended/);
  writeFileSync(path.join(dir, 'a-file'), 'not a directory');
  await expect(PGliteThread.start({ dataDir: path.join(dir, 'a-file') })).rejects.toThrow(/a-file could not be opened: ErrnoError/);
  rmSync(dir, { recursive: true, force: true });
});

test('the database thread: a new data directory is created on a thread that then ends, so its garbage is not kept', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pglite-thread-new-'));
  const before = process.memoryUsage().rss;
  const thread = await PGliteThread.start({ dataDir: path.join(dir, 'pgdata'), sharedBuffers: TEST_SHARED_BUFFERS });
  try {
    expect(existsSync(path.join(dir, 'pgdata', 'PG_VERSION'))).toBe(true);
    expect((await thread.run('select 1 as one')).rows).toEqual([{ one: 1 }]);
    // Measured here, three runs each: +599 to +600 MB when the thread that ran initdb went on serving, +193 to +215 MB
    // now.
    expect((process.memoryUsage().rss - before) / 2 ** 20).toBeLessThan(400);
  } finally {
    await thread.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the database thread: answers settle their statements in order; an answer out of order stops it instead of mismatching', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pglite-thread-order-'));
  const thread = await PGliteThread.start({ dataDir: path.join(dir, 'pgdata'), sharedBuffers: TEST_SHARED_BUFFERS });
  try {
    // Pipelined: all sent before any answer; each gets its own (more than the ring's first 64 slots).
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => thread.run(`select ${i} as n`)));
    expect(answers.map((a) => a.rows[0])).toEqual(Array.from({ length: 100 }, (_, n) => ({ n })));
    const waiting = thread.run('select pg_sleep(0.2)');
    (thread as unknown as { worker: NodeJS.EventEmitter }).worker.emit('message', { id: 9999, values: [] });
    await expect(waiting).rejects.toThrow(/answered statement 9999 while \d+ was next/);
    await expect(thread.run('select 1')).rejects.toThrow(/answered statement 9999/);
  } finally {
    await thread.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
