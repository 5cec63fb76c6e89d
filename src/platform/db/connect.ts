import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { vector } from '@electric-sql/pglite-pgvector';
import { CamelCasePlugin, type Dialect, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { ConnectionLock, lockedPool, parseLikePg, PGliteDialect } from './pglite-dialect.ts';
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
  | { dataDir: string; /** Postgres' shared_buffers (default PGlite's 128MB). */ sharedBuffers?: string }
  | { pglite: PGlite; ownsPglite?: boolean }
) & {
  /** Sees every SQL statement Kysely runs (tests count them to prove there is no N+1). */
  onQuery?: (sql: string) => void;
};

function kysely(dialect: Dialect, onQuery?: (sql: string) => void): Kysely<DB> {
  return new Kysely<DB>({
    dialect,
    plugins: [new CamelCasePlugin()],
    ...(onQuery ? { log: (event) => void (event.level === 'query' && onQuery(event.query.sql)) } : {}),
  });
}

/**
 * PostgreSQL (DATABASE_URL): Kysely's PostgresDialect over a `pg` Pool. Embedded PGlite: Kysely on PGlite's own
 * query API (pglite-dialect.ts: same value preparation and type parsing as `pg`, one connection behind a lock),
 * plus a `pg` Pool on PGlite's node-postgres adapter for libraries that speak `pg`, holding the same lock.
 */
export async function connect(options: ConnectOptions): Promise<Database> {
  if ('databaseUrl' in options) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // An idle client whose connection the server closed (restart, failover, an administrator) makes the pool emit
    // 'error', which ends the process when nobody listens. The pool has already dropped that client and the next
    // query opens a new connection; the server logs it (main.ts).
    pool.on('error', () => {});
    // A client checked out of the pool has no 'error' listener (pg-pool takes its own off while the client is out), so
    // a connection the server ends between two statements of a transaction (57P01 on a restart or failover) would
    // end the process with an unhandled 'error' (seen in the two-instance test). Errors reach the statement that runs
    // next on that client; the pool drops the client when it comes back unusable.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = kysely(new PostgresDialect({ pool }), options.onQuery);
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
    const startParams = options.sharedBuffers ? [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffers}`] : undefined;
    pglite = await PGlite.create({ dataDir: dir, extensions: { vector }, ...(startParams ? { startParams } : {}) });
  }
  parseLikePg(pglite);
  const lock = new ConnectionLock();
  const pool = lockedPool(createPgConfig(pglite), lock);
  const db = kysely(new PGliteDialect(pglite, lock), options.onQuery);
  return {
    db,
    kind: 'pglite',
    pool,
    pglite,
    async close() {
      await db.destroy();
      await pool.end();
      if (owns) await pglite.close();
    },
  };
}

/** PGlite with the extensions our migrations need, in memory or loaded from a dump (tests). */
export function createPglite(options: { loadDataDir?: Blob } = {}): Promise<PGlite> {
  return PGlite.create({ dataDir: 'memory://', extensions: { vector }, ...options });
}
