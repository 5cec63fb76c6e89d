import { sql } from 'kysely';
import { afterAll, beforeAll, expect, onTestFinished, test } from 'vitest';
import { connect, type Database } from '../../src/platform/db/connect.ts';
import { serverDatabase, type ServerDatabase } from '../helpers/db.ts';

// Prepared statements on the `pg` path (src/platform/db/pg-prepared.ts), against the run's PostgreSQL or PGlite
// behind pglite-socket. One connection per pool, so pg_prepared_statements (the session's own) shows what it holds.
let server: ServerDatabase;
const opened: Database[] = [];

beforeAll(async () => {
  server = await serverDatabase();
});
afterAll(async () => {
  await Promise.all(opened.map((d) => d.close()));
  await server?.close();
});

async function open(preparedStatements?: number): Promise<Database> {
  const database = await connect({ databaseUrl: server.url, poolSize: 1, ...(preparedStatements === undefined ? {} : { preparedStatements }) });
  opened.push(database);
  return database;
}

/** The statements this process prepared whose text contains `marker`, with how often each ran. */
async function preparedWith(database: Database, marker: string) {
  const { rows } = await sql<{ name: string; statement: string; runs: number }>`
    select name, statement, (generic_plans + custom_plans)::int as runs from pg_prepared_statements
    where name like 'partner_api_p%' and position(${marker} in statement) > 0 order by name`.execute(database.db);
  return rows;
}

test('a statement with parameters is parsed once per connection and then only bound and executed', async () => {
  const database = await open();
  for (let i = 0; i < 3; i++) {
    const { rows } = await sql<{ v: number }>`select ${i}::int + 1 as v, 'once-parsed' as marker`.execute(database.db);
    expect(rows).toEqual([{ v: i + 1, marker: 'once-parsed' }]);
  }
  const prepared = await preparedWith(database, 'once-parsed');
  expect(prepared).toHaveLength(1);
  expect(prepared[0]!.runs).toBe(3);
});

test('a connection keeps at most the configured number; the least recently used are deallocated, and run again when asked', async () => {
  const database = await open(3);
  const run = async (k: number) => (await sql<{ v: number }>`select ${k}::int * 10 + ${sql.lit(k)} as v, 'bounded' as marker`.execute(database.db)).rows[0]!.v;
  for (let k = 1; k <= 5; k++) expect(await run(k)).toBe(k * 11);
  // Evicted statements are deallocated when the connection is next checked out: this statement's checkout.
  const held = await preparedWith(database, 'bounded');
  expect(held.map((p) => p.statement.match(/\+ (\d+) as v/)?.[1])).toEqual(['3', '4', '5']);
  expect(await run(1)).toBe(11);
  expect((await preparedWith(database, 'bounded')).length).toBeLessThanOrEqual(3);
});

test('a table changed under a prepared statement: outside a transaction it is prepared again and rerun; inside one the transaction fails once', async () => {
  const database = await open();
  await sql`create table prepared_probe (id int primary key, name text)`.execute(database.db);
  onTestFinished(async () => void (await sql`drop table if exists prepared_probe`.execute(database.db)));
  await sql`insert into prepared_probe values (1, 'one')`.execute(database.db);
  const read = () => sql<Record<string, unknown>>`select * from prepared_probe where id = ${1}`.execute(database.db).then((r) => r.rows);
  expect(await read()).toEqual([{ id: 1, name: 'one' }]);
  expect(await read()).toEqual([{ id: 1, name: 'one' }]);

  // Another instance's migration adds a column: PostgreSQL refuses the kept plan ("cached plan must not change result
  // type", 0A000).
  await sql`alter table prepared_probe add column note text not null default 'added'`.execute(database.db);
  expect(await read()).toEqual([{ id: 1, name: 'one', note: 'added' }]);

  await sql`alter table prepared_probe add column extra int`.execute(database.db);
  const inside = database.db.transaction().execute(async (tx) => sql`select * from prepared_probe where id = ${1}`.execute(tx));
  await expect(inside).rejects.toMatchObject({ code: '0A000' });
  expect(await read()).toEqual([{ id: 1, name: 'one', note: 'added', extra: null }]);
  expect(await preparedWith(database, 'prepared_probe')).toHaveLength(1);
});

test("statements dropped behind the driver's back (a pooler's DEALLOCATE ALL) are prepared again under new names", async () => {
  const database = await open();
  const read = () => sql<{ v: string }>`select ${'x'}::text || 'y' as v, 'discarded' as marker`.execute(database.db).then((r) => r.rows[0]!.v);
  expect(await read()).toBe('xy');
  const [before] = await preparedWith(database, 'discarded');
  await sql`deallocate all`.execute(database.db);
  expect(await read()).toBe('xy');
  const after = await preparedWith(database, 'discarded');
  expect(after).toHaveLength(1);
  expect(after[0]!.name).not.toBe(before!.name);
});

test('DATABASE_PREPARED_STATEMENTS=0: nothing is prepared', async () => {
  const database = await open(0);
  for (let i = 0; i < 2; i++) await sql`select ${i}::int as v, 'unprepared' as marker`.execute(database.db);
  expect(await preparedWith(database, 'unprepared')).toEqual([]);
});
