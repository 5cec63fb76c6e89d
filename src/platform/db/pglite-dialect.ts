import type { PGlite } from '@electric-sql/pglite';
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
import { RowNames } from './camel-case-rows.ts';
import { engineResult, runStatement } from './pglite-protocol.ts';
import { VectorValue } from './vector-value.ts';

// Kysely straight on PGlite: no `pg` client and no emulated wire protocol in between (issue 17: the node-postgres
// adapter cost ~3× PGlite's query() per statement), each statement one protocol exchange (pglite-protocol.ts).
// Values go in (pg's prepareValue) and come out (pg-values.ts) exactly as on the `pg` path; rows come back already
// keyed as Kysely's CamelCasePlugin keys them (camel-case-rows.ts), so the Kysely instance only renames identifiers in
// queries. The engine is PGlite on its own thread (pglite-thread.ts, the server's) or on this one (`inThisThread`:
// tests that also serve it over a socket).
// PGlite has one backend, so the driver has one connection behind a lock: a transaction holds it from BEGIN to
// COMMIT, and everything else that talks to this PGlite (its statements, the pool of `enginePool`) waits for it.
// A statement outside a transaction holds the lock only until it is handed to a pipelined engine (the thread runs
// statements in the order they arrive), so statements of concurrent requests queue in the database's thread
// instead of each waiting for the previous answer to come back.

const prepareValue = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils.prepareValue;
/**
 * A parameter as node-postgres sends it (text: pg's prepareValue), with bytea in its text form, not a binary one;
 * a vector in pgvector's binary form (vector-value.ts), the only parameter that goes to the engine as bytes.
 */
function prepare(value: unknown): unknown {
  if (value instanceof VectorValue) return value.binary();
  const prepared = prepareValue(value);
  return Buffer.isBuffer(prepared) ? `\\x${prepared.toString('hex')}` : prepared;
}

/** What a statement returns. */
export interface EngineResult {
  rows: Record<string, unknown>[];
  command?: string;
  rowCount?: number;
}

/** PGlite as the driver sees it: one backend that runs a statement (prepared text parameters) or a script. */
export interface EmbeddedEngine {
  /** Statements run in the order `run` is called, so the lock is released once a statement is sent. */
  readonly pipelined: boolean;
  /**
   * With parameters: the extended protocol; without: the simple protocol (several statements allowed).
   * `camelCase`: rows keyed as Kysely's CamelCasePlugin would key them (camel-case-rows.ts).
   */
  run(sql: string, params?: unknown[], camelCase?: boolean): Promise<EngineResult>;
}

const rowNames = new RowNames();

/** A PGlite on this thread as an engine: each statement holds the lock until its answer is back. */
export function inThisThread(pglite: PGlite): EmbeddedEngine {
  return { pipelined: false, run: async (sql, params, camelCase) => engineResult(await runStatement(pglite, sql, params, camelCase ? rowNames : undefined)) };
}

/** One holder at a time, in arrival order. */
export class ConnectionLock {
  #tail: Promise<void> = Promise.resolve();
  #holders = 0;

  /** The holder and those waiting for it. */
  get holders(): number {
    return this.#holders;
  }

  /** Resolves when the lock is held; call the returned function (once) to let the next holder in. */
  acquire(): Promise<() => void> {
    this.#holders++;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = () => {
        this.#holders--;
        resolve();
      };
    });
    const ready = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => held);
    return ready;
  }
}

class PGliteConnection implements DatabaseConnection {
  /** Set while this connection holds the lock for a transaction (or, on an engine that is not pipelined, always). */
  release: (() => void) | undefined;

  constructor(
    private readonly engine: EmbeddedEngine,
    private readonly lock: ConnectionLock,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const params = compiled.parameters.length ? compiled.parameters.map(prepare) : undefined;
    let pending: Promise<EngineResult>;
    if (this.release) pending = this.engine.run(compiled.sql, params, true);
    else {
      const release = await this.lock.acquire();
      try {
        pending = this.engine.run(compiled.sql, params, true);
      } finally {
        release();
      }
    }
    const { command, rowCount, rows } = await pending;
    if (command === 'ROLLBACK' || command === 'COMMIT') return { rows: [{ command } as R] };
    const counted = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
    return { numAffectedRows: counted ? BigInt(rowCount ?? 0) : undefined, rows: rows as R[] };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on the embedded database');
  }
}

class PGliteDriver implements Driver {
  constructor(
    private readonly engine: EmbeddedEngine,
    private readonly lock: ConnectionLock,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = new PGliteConnection(this.engine, this.lock);
    // An engine that is not pipelined is held from checkout to release, as a pool client would be.
    if (!this.engine.pipelined) connection.release = await this.lock.acquire();
    return connection;
  }

  async releaseConnection(connection: PGliteConnection): Promise<void> {
    const release = connection.release;
    connection.release = undefined;
    release?.();
  }

  async beginTransaction(connection: PGliteConnection, settings: TransactionSettings): Promise<void> {
    // The transaction holds the lock from BEGIN until its COMMIT or ROLLBACK is sent.
    connection.release ??= await this.lock.acquire();
    let statement = 'begin';
    if (settings.isolationLevel || settings.accessMode) {
      statement = 'start transaction';
      if (settings.isolationLevel) statement += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode) statement += ` ${settings.accessMode}`;
    }
    await connection.executeQuery(CompiledQuery.raw(statement));
  }

  async commitTransaction(connection: PGliteConnection): Promise<void> {
    const { rows } = await this.#end(connection, 'commit');
    // PostgreSQL completes COMMIT with a ROLLBACK tag when an earlier error left the transaction aborted.
    if (rows[0]?.command === 'ROLLBACK') throw new AbortedTransactionError();
  }

  async rollbackTransaction(connection: PGliteConnection): Promise<void> {
    await this.#end(connection, 'rollback');
  }

  /** COMMIT or ROLLBACK: on a pipelined engine the lock goes to the next holder once the statement is sent. */
  #end(connection: PGliteConnection, statement: 'commit' | 'rollback') {
    const ended = connection.executeQuery<{ command: string }>(CompiledQuery.raw(statement));
    if (this.engine.pipelined) void this.releaseConnection(connection);
    return ended;
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
    private readonly engine: EmbeddedEngine,
    private readonly lock: ConnectionLock,
  ) {}

  createDriver(): Driver {
    return new PGliteDriver(this.engine, this.lock);
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

/** The part of a `pg` Pool the rest of the server uses: the rate limiter's counters and the pool's gauges. */
export interface SqlPool {
  query<R extends Record<string, unknown> = Record<string, unknown>>(
    text: string | { text: string; values?: unknown[] },
    values?: unknown[],
  ): Promise<{ rows: R[]; rowCount: number | null }>;
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly options: { max?: number };
  end(): Promise<void>;
  /** `pg`'s pool: an idle connection the server closed (the embedded database has none). */
  on?(event: 'error', listener: (err: Error) => void): unknown;
}

/**
 * The embedded database as a `pg`-style pool (for libraries that speak `pg`: the rate limiter's counters): each
 * query runs on the engine as a statement outside a transaction, under the driver's lock.
 */
export function enginePool(engine: EmbeddedEngine, lock: ConnectionLock): SqlPool {
  return {
    async query<R>(text: string | { text: string; values?: unknown[] }, values?: unknown[]) {
      const config = typeof text === 'string' ? { text, values } : text;
      const release = await lock.acquire();
      let pending: Promise<EngineResult>;
      try {
        pending = engine.run(config.text, config.values?.map(prepare));
      } finally {
        if (engine.pipelined) release();
      }
      try {
        const result = await pending;
        return { rows: result.rows as R[], rowCount: result.rowCount ?? null };
      } finally {
        if (!engine.pipelined) release();
      }
    },
    totalCount: 1,
    get idleCount() {
      return lock.holders === 0 ? 1 : 0;
    },
    get waitingCount() {
      return Math.max(0, lock.holders - 1);
    },
    options: { max: 1 },
    async end() {},
  };
}
