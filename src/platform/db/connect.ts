import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { CamelCasePlugin, type Dialect, Kysely, type PluginTransformResultArgs, PostgresDialect, type QueryResult, type UnknownRow } from 'kysely';
import pg from 'pg';
import './pg-values.ts';
import { ConnectionLock, type EmbeddedEngine, enginePool, inThisThread, PGliteDialect, type SqlPool } from './pglite-dialect.ts';
import { sharedBuffersFor } from './pglite-buffers.ts';
import { renamedRowsPool } from './pg-renamed-rows.ts';
import { DEFAULT_PREPARED } from './prepared-names.ts';
import { PGliteThread } from './pglite-thread.ts';
import type { DB } from './types.ts';

export interface Database {
  db: Kysely<DB>;
  kind: 'pglite' | 'postgres';
  /** The driver's pool (for libraries that speak `pg` themselves, e.g. the rate limiter's shared counters). */
  pool: SqlPool;
  /** The embedded engine when it runs on this thread (tests serve it over the wire with pglite-socket). */
  pglite?: PGlite;
  close(): Promise<void>;
}

export type ConnectOptions = (
  | {
      databaseUrl: string;
      poolSize?: number;
      /** Statements each connection keeps prepared (pg-prepared.ts; default 200, 0: none). */
      preparedStatements?: number;
    }
  | {
      /** PGlite's data directory; the database runs on its own thread (pglite-thread.ts). */
      dataDir: string;
      /** Postgres' shared_buffers: a size, or `auto` (by the data's size: pglite-buffers.ts), the default. */
      sharedBuffers?: string;
      /** Run PGlite on this thread instead (benchmarks compare the two). */
      inThisThread?: boolean;
    }
  | { pglite: PGlite; ownsPglite?: boolean }
) & {
  /** Sees every SQL statement Kysely runs (tests count them to prove there is no N+1). */
  onQuery?: (sql: string) => void;
};

/** CamelCasePlugin for queries only: both drivers return rows already renamed (camel-case-rows.ts). */
class CamelCaseQueries extends CamelCasePlugin {
  override async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/** The dialect returns rows keyed as CamelCasePlugin keys them; the plugin renames the queries' identifiers. */
function kysely(dialect: Dialect, onQuery?: (sql: string) => void): Kysely<DB> {
  return new Kysely<DB>({
    dialect,
    plugins: [new CamelCaseQueries()],
    ...(onQuery ? { log: (event) => void (event.level === 'query' && onQuery(event.query.sql)) } : {}),
  });
}

/**
 * PostgreSQL (DATABASE_URL): Kysely's PostgresDialect over a `pg` Pool, its rows renamed as they are read
 * (pg-renamed-rows.ts). Embedded PGlite: Kysely on PGlite's own query API (pglite-dialect.ts: same value preparation
 * and type parsing as `pg`, one connection behind a lock), on the database's own thread for a data directory, plus a
 * minimal `pg`-style pool on the same engine and lock.
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
    const db = kysely(new PostgresDialect({ pool: renamedRowsPool(pool, options.preparedStatements ?? DEFAULT_PREPARED) }), options.onQuery);
    return { db, kind: 'postgres', pool, close: () => db.destroy() };
  }
  const { engine, pglite, closeEngine } = await embeddedEngine(options);
  const lock = new ConnectionLock();
  const pool = enginePool(engine, lock);
  const db = kysely(new PGliteDialect(engine, lock), options.onQuery);
  return {
    db,
    kind: 'pglite',
    pool,
    ...(pglite ? { pglite } : {}),
    async close() {
      await db.destroy();
      await closeEngine();
    },
  };
}

type Embedded = Exclude<ConnectOptions, { databaseUrl: string }>;

/** The embedded engine: a given PGlite on this thread, or a data directory opened on its own thread (or this one). */
async function embeddedEngine(options: Embedded): Promise<{ engine: EmbeddedEngine; pglite?: PGlite; closeEngine: () => Promise<void> }> {
  if ('pglite' in options) {
    const { pglite, ownsPglite } = options;
    return { engine: inThisThread(pglite), pglite, closeEngine: async () => void (ownsPglite && (await pglite.close())) };
  }
  const dataDir = path.join(options.dataDir, 'pgdata');
  fs.mkdirSync(dataDir, { recursive: true });
  const sharedBuffers = sharedBuffersFor(options.sharedBuffers ?? 'auto', dataDir);
  if (!options.inThisThread) {
    const thread = await PGliteThread.start({ dataDir, sharedBuffers });
    return { engine: thread, closeEngine: () => thread.close() };
  }
  const pglite = await (await import('./pglite-open.ts')).openPglite({ dataDir, sharedBuffers });
  return { engine: inThisThread(pglite), pglite, closeEngine: () => pglite.close() };
}

/**
 * PGlite with the extensions our migrations need, in memory or loaded from a dump (tests, the search evaluation's
 * restart), with shared_buffers when given. Loaded when first used: a
 * server whose database runs on its own thread never loads PGlite on this one.
 */
export async function createPglite(options: { loadDataDir?: Blob; sharedBuffers?: string } = {}): Promise<PGlite> {
  return (await import('./pglite-open.ts')).openPglite({ dataDir: 'memory://', ...options });
}
