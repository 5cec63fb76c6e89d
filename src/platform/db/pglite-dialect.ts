import type { PGlite, Results } from '@electric-sql/pglite';
import {
  AbortedTransactionError,
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';

// Kysely straight on PGlite's own query API: no `pg` client and no emulated wire protocol in between (issue 17: the
// node-postgres adapter cost ~3× PGlite's query() per statement). Values go in and come out exactly as on the `pg`
// path: parameters are prepared by pg's prepareValue, result columns are parsed by pg-types' text parsers (the
// same registry connect.ts customises), so a date stays 'YYYY-MM-DD', numeric and int8 stay strings, json is
// parsed, and unknown types such as pgvector's come back as text.
// PGlite has one backend, so the driver has one connection behind a lock: a transaction holds it from BEGIN to
// COMMIT, and everything else that talks to this PGlite through the driver's pool (`lockedPool`) waits for it too.

/** One holder at a time, in arrival order. */
export class ConnectionLock {
  #tail: Promise<void> = Promise.resolve();

  /** Resolves when the lock is held; call the returned function (once) to let the next holder in. */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ready = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => held);
    return ready;
  }
}

/** pg-types' text parser for any type id: the parsing node-postgres applies. */
const PG_PARSERS = new Proxy({} as Record<number | string, (value: string) => unknown>, {
  get: (_target, oid) => (typeof oid === 'string' ? pg.types.getTypeParser(Number(oid), 'text') : undefined),
});
/** Parameters arrive already prepared as text (see `prepare`): PGlite sends them as they are. */
const AS_IS = new Proxy({} as Record<number | string, (value: unknown) => string>, { get: () => (value: unknown) => value as string });
const QUERY_OPTIONS = { serializers: AS_IS };

const prepareValue = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils.prepareValue;
/** A parameter as node-postgres sends it (text), with bytea in its text form instead of a binary parameter. */
function prepare(value: unknown): unknown {
  const prepared = prepareValue(value);
  return Buffer.isBuffer(prepared) ? `\\x${prepared.toString('hex')}` : prepared;
}

/** Makes this PGlite parse every result column the way node-postgres does (it is ours: connect.ts owns it). */
export function parseLikePg(pglite: PGlite): void {
  pglite.parsers = PG_PARSERS;
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // Statements without parameters take the simple protocol, as pg does (it also allows several statements).
    const result: Results<R> = compiled.parameters.length
      ? await this.pglite.query<R>(compiled.sql, compiled.parameters.map(prepare), QUERY_OPTIONS)
      : ((await this.pglite.exec(compiled.sql)).at(-1) as Results<R>);
    const { command, rowCount } = result as Results<R> & { command?: string; rowCount?: number };
    if (command === 'ROLLBACK' || command === 'COMMIT') return { rows: [{ command } as R] };
    const counted = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
    return { numAffectedRows: counted ? BigInt(rowCount ?? result.affectedRows ?? 0) : undefined, rows: result.rows ?? [] };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on the embedded database');
  }
}

class PGliteDriver implements Driver {
  readonly #connection: PGliteConnection;
  #release: (() => void) | undefined;

  constructor(
    private readonly pglite: PGlite,
    private readonly lock: ConnectionLock,
  ) {
    this.#connection = new PGliteConnection(pglite);
  }

  async init(): Promise<void> {
    await this.pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    this.#release = await this.lock.acquire();
    return this.#connection;
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let statement = 'begin';
    if (settings.isolationLevel || settings.accessMode) {
      statement = 'start transaction';
      if (settings.isolationLevel) statement += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode) statement += ` ${settings.accessMode}`;
    }
    await connection.executeQuery(CompiledQuery.raw(statement));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const { rows } = await connection.executeQuery<{ command: string }>(CompiledQuery.raw('commit'));
    // PostgreSQL completes COMMIT with a ROLLBACK tag when an earlier error left the transaction aborted.
    if (rows[0]?.command === 'ROLLBACK') throw new AbortedTransactionError();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteName(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteName(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteName(name)}`));
  }

  async destroy(): Promise<void> {
    // The PGlite instance is closed by its owner (connect.ts).
  }
}

const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Kysely's PostgreSQL dialect with PGlite's query API as the driver (one connection behind `lock`). */
export class PGliteDialect implements Dialect {
  constructor(
    private readonly pglite: PGlite,
    private readonly lock: ConnectionLock,
  ) {}

  createDriver(): Driver {
    return new PGliteDriver(this.pglite, this.lock);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}

type Checkout = (err: Error | undefined, client?: pg.PoolClient, done?: (release?: unknown) => void) => void;

/**
 * A `pg` Pool on PGlite's node-postgres adapter (for libraries that speak `pg`: the rate limiter's counters) whose
 * clients hold the driver's lock while checked out, so their statements never interleave with Kysely's.
 */
export function lockedPool(config: pg.PoolConfig, lock: ConnectionLock): pg.Pool {
  class LockedPool extends pg.Pool {
    // pg-pool's own query() checks out through connect(callback): both forms take the lock.
    override connect(): Promise<pg.PoolClient>;
    override connect(callback: Checkout): void;
    override connect(callback?: Checkout): Promise<pg.PoolClient> | void {
      const checkout = (async () => {
        const release = await lock.acquire();
        try {
          const client = await super.connect();
          const releaseClient = client.release.bind(client);
          client.release = (err?: Error | boolean) => {
            client.release = releaseClient;
            releaseClient(err);
            release();
          };
          return client;
        } catch (err) {
          release();
          throw err;
        }
      })();
      if (!callback) return checkout;
      checkout.then(
        (client) => callback(undefined, client, client.release as (release?: unknown) => void),
        (err: Error) => callback(err),
      );
    }
  }
  return new LockedPool(config);
}
