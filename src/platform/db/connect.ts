import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { vector } from '@electric-sql/pglite-pgvector';
import { CamelCasePlugin, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './types.ts';

// A `date` is a calendar day: keep Postgres' 'YYYY-MM-DD' text instead of a Date at local midnight, which
// shifts the day in any time zone west of UTC.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

export interface Database {
  db: Kysely<DB>;
  kind: 'pglite' | 'postgres';
  /** The driver's pool (for libraries that speak `pg` themselves, e.g. the rate limiter's shared counters). */
  pool: pg.Pool;
  /** The embedded engine, when there is one (tests serve it over the wire with pglite-socket). */
  pglite?: PGlite;
  close(): Promise<void>;
}

export type ConnectOptions = (
  | { databaseUrl: string; poolSize?: number }
  | { dataDir: string }
  | { pglite: PGlite; ownsPglite?: boolean }
) & {
  /** Sees every SQL statement Kysely runs (tests count them to prove there is no N+1). */
  onQuery?: (sql: string) => void;
};

function kysely(pool: pg.Pool, onQuery?: (sql: string) => void): Kysely<DB> {
  return new Kysely<DB>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new CamelCasePlugin()],
    ...(onQuery ? { log: (event) => void (event.level === 'query' && onQuery(event.query.sql)) } : {}),
  });
}

/**
 * One driver for both engines: Kysely's PostgresDialect over a `pg` Pool, which talks either to a real
 * PostgreSQL (DATABASE_URL) or to embedded PGlite through its node-postgres adapter (one connection,
 * so queries are serialised exactly as PGlite's single backend does anyway).
 */
export async function connect(options: ConnectOptions): Promise<Database> {
  if ('databaseUrl' in options) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    const db = kysely(pool, options.onQuery);
    return { db, kind: 'postgres', pool, close: () => db.destroy() };
  }
  let pglite: PGlite;
  let owns = true;
  if ('pglite' in options) {
    pglite = options.pglite;
    owns = options.ownsPglite ?? false;
  } else {
    const dir = path.join(options.dataDir, 'pgdata');
    fs.mkdirSync(dir, { recursive: true });
    pglite = await PGlite.create({ dataDir: dir, extensions: { vector } });
  }
  const pool = new pg.Pool(createPgConfig(pglite));
  const db = kysely(pool, options.onQuery);
  return {
    db,
    kind: 'pglite',
    pool,
    pglite,
    async close() {
      await db.destroy();
      if (owns) await pglite.close();
    },
  };
}

/** PGlite with the extensions our migrations need, in memory or loaded from a dump (tests). */
export function createPglite(options: { loadDataDir?: Blob } = {}): Promise<PGlite> {
  return PGlite.create({ dataDir: 'memory://', extensions: { vector }, ...options });
}
