import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { RowNames } from './camel-case-rows.ts';
import { rowsOf } from './row-objects.ts';
import { ConnectionStatements, deallocateEvicted, forgetParsed } from './pg-prepared.ts';
import { STATEMENT_GONE } from './prepared-names.ts';

// PostgreSQL (DATABASE_URL) with rows keyed as Kysely's CamelCasePlugin keys them, built once: node-postgres reads
// each statement in its array row mode (values parsed by the same pg-types parsers) and the rows are built from the
// arrays with the renamed keys (camel-case-rows.ts, and `rowsOf`, as the embedded engine's are), instead of
// node-postgres building an object per row and the plugin copying it into another. The Kysely instance keeps only
// the plugin's query half (CamelCaseQueries in connect.ts), as on the embedded database. Only Kysely's statements go
// through here: the raw pool (rate limiter, LISTEN) still gets node-postgres' own rows.

type Client = pg.PoolClient;

/**
 * Kysely's view of `pool`: its clients' statements answer renamed rows, and those with parameters run prepared, at
 * most `preparedStatements` per connection (pg-prepared.ts; 0: none).
 */
export function renamedRowsPool(pool: pg.Pool, preparedStatements: number): PostgresPool {
  const names = new RowNames();
  // Kysely keeps one connection per client object it is given: the same client must give the same wrapper.
  const wrappers = new WeakMap<Client, { wrapper: PostgresPoolClient; statements: ConnectionStatements }>();
  const wrap = (client: Client) => {
    let wrapped = wrappers.get(client);
    if (!wrapped) {
      const statements = new ConnectionStatements(preparedStatements);
      const run = async (sql: string, values: unknown[]): Promise<pg.QueryResult<unknown[]> | pg.QueryResult<unknown[]>[]> => {
        for (let attempt = 0; ; attempt++) {
          const prepared = statements.nameFor(sql, values.length);
          try {
            return await client.query({ name: prepared?.name, text: sql, values, rowMode: 'array' });
          } catch (err) {
            if (!prepared?.known) throw err;
            const code = (err as { code?: string }).code;
            const again = statements.failed(sql, code);
            if (code === STATEMENT_GONE) forgetParsed(client, prepared.name);
            if (!again || attempt > 0) throw err;
          }
        }
      };
      const wrapper: PostgresPoolClient = {
        query: (async (sql: string, parameters: readonly unknown[]) => {
          const answer = await run(sql, parameters as unknown[]);
          // A script of several statements (simple protocol) answers one result each: the last one's, as on PGlite.
          const result = Array.isArray(answer) ? answer.at(-1)! : answer;
          return { command: result.command, rowCount: result.rowCount, rows: renamedRows(names, result) } as PostgresQueryResult<unknown>;
        }) as PostgresPoolClient['query'],
        release: (destroy?: boolean) => client.release(destroy),
      };
      wrappers.set(client, (wrapped = { wrapper, statements }));
    }
    return wrapped;
  };
  return {
    options: pool.options,
    connect: async () => {
      const client = await pool.connect();
      const { wrapper, statements } = wrap(client);
      await deallocateEvicted(client, statements);
      return wrapper;
    },
    end: () => pool.end(),
  };
}

/** The array rows of `result` as objects keyed by the renamed column names (json values' keys renamed too). */
function renamedRows(names: RowNames, result: pg.QueryResult<unknown[]>): Record<string, unknown>[] {
  const values = result.rows;
  for (const row of values) {
    for (let i = 0; i < row.length; i++) {
      const value = row[i];
      if (typeof value === 'object' && value !== null) row[i] = names.value(value);
    }
  }
  return rowsOf({ columns: result.fields.map((field) => names.name(field.name)), values });
}
