import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { RowNames } from './camel-case-rows.ts';
import { rowsOf } from './pglite-protocol.ts';

// PostgreSQL (DATABASE_URL) with rows keyed as Kysely's CamelCasePlugin keys them, built once: node-postgres reads
// each statement in its array row mode (values parsed by the same pg-types parsers) and the rows are built from the
// arrays with the renamed keys (camel-case-rows.ts, and `rowsOf`, as the embedded engine's are), instead of
// node-postgres building an object per row and the plugin copying it into another. The Kysely instance keeps only
// the plugin's query half (CamelCaseQueries in connect.ts), as on the embedded database. Only Kysely's statements go
// through here: the raw pool (rate limiter, LISTEN) still gets node-postgres' own rows.

type Client = pg.PoolClient;

/** Kysely's view of `pool`: its clients' statements answer renamed rows. */
export function renamedRowsPool(pool: pg.Pool): PostgresPool {
  const names = new RowNames();
  // Kysely keeps one connection per client object it is given: the same client must give the same wrapper.
  const wrappers = new WeakMap<Client, PostgresPoolClient>();
  const wrap = (client: Client): PostgresPoolClient => {
    let wrapper = wrappers.get(client);
    if (!wrapper) {
      wrapper = {
        query: (async (sql: string, parameters: readonly unknown[]) => {
          const answer = await client.query({ text: sql, values: parameters as unknown[], rowMode: 'array' });
          // A script of several statements (simple protocol) answers one result each: the last one's, as on PGlite.
          const result = Array.isArray(answer) ? (answer.at(-1) as pg.QueryResult<unknown[]>) : answer;
          return { command: result.command, rowCount: result.rowCount, rows: renamedRows(names, result) } as PostgresQueryResult<unknown>;
        }) as PostgresPoolClient['query'],
        release: (destroy?: boolean) => client.release(destroy),
      };
      wrappers.set(client, wrapper);
    }
    return wrapper;
  };
  return {
    options: pool.options,
    connect: async () => wrap(await pool.connect()),
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
