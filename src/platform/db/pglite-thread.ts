import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { siblingModule } from '../lib/module-file.ts';
import { RingQueue } from '../lib/ring-queue.ts';
import { startWorker } from '../lib/worker-thread.ts';
import type { EmbeddedEngine, EngineResult } from './pglite-dialect.ts';
import { databaseError } from './pglite-protocol.ts';
import { rowsOf } from './row-objects.ts';

// The main thread's side of the embedded database's own thread (pglite-worker.ts). Each statement is one message;
// the worker answers in order. Measured on the demo seed's inventory list (issue 17): PGlite spends ~1.3 ms per
// request in Postgres, its output, the protocol and value parsing, which this thread no longer runs.

export interface WorkerOptions {
  /** PGlite's data directory (a path, or memory:// in tests). */
  dataDir: string;
  /** Postgres' shared_buffers (default PGlite's 128MB). */
  sharedBuffers?: string;
}
export interface EngineRequest {
  id: number;
  sql: string;
  /** Prepared text parameters; none: the simple protocol (several statements allowed). */
  params?: unknown[];
  /** Rows keyed as Kysely's CamelCasePlugin keys them. */
  camelCase?: boolean;
}
export interface EngineReply {
  id: number;
  /** The rows as arrays of values beside the column names (pglite-protocol.ts `StatementResult`). */
  columns?: string[];
  values?: unknown[][];
  command?: string;
  rowCount?: number;
  /** Positions of the bytea columns (to rewrap as Buffers). */
  bytea?: number[];
  error?: { message: string; [field: string]: unknown };
}

interface Pending {
  id: number;
  resolve(result: EngineResult): void;
  reject(err: Error): void;
}

export class PGliteThread implements EmbeddedEngine {
  /** The worker answers in order, so statements are sent without waiting for the previous answer. */
  readonly pipelined = true;
  /** The statements sent, oldest first (the worker answers in order); a ring, not a Map: see ring-queue.ts. */
  readonly #pending = new RingQueue<Pending>();
  #nextId = 1;
  #stopped: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: EngineReply) => this.#settle(reply));
    worker.on('error', (err) => this.#stop(err));
    worker.on('exit', (code) => this.#stop(new Error(`the embedded database's thread ended (exit code ${code})`)));
    worker.unref();
  }

  /**
   * Starts the worker and resolves once its PGlite is open (rejects with PGlite's own error when it cannot open).
   * A data directory that does not exist yet is created on a thread of its own that then ends: creating it (initdb)
   * leaves ~450 MB of garbage in the thread's heap, which the collector of a thread that then mostly waits never
   * reclaims (the server's first start idled at 712 MB, a restart at 280).
   */
  static async start(options: WorkerOptions): Promise<PGliteThread> {
    if (!options.dataDir.startsWith('memory://') && !existsSync(path.join(options.dataDir, 'PG_VERSION'))) await (await PGliteThread.#open(options)).close();
    return PGliteThread.#open(options);
  }

  static async #open(options: WorkerOptions): Promise<PGliteThread> {
    const worker = startWorker(siblingModule('pglite-worker', import.meta.url), options);
    const thread = new PGliteThread(worker);
    worker.ref();
    try {
      await new Promise<EngineResult>((resolve, reject) => thread.#pending.push({ id: 0, resolve, reject }));
    } finally {
      worker.unref();
    }
    return thread;
  }

  run(sql: string, params?: unknown[], camelCase?: boolean): Promise<EngineResult> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    // Referenced only while a statement is out, so an idle database never keeps the process alive.
    if (this.#pending.size === 0) this.worker.ref();
    return new Promise<EngineResult>((resolve, reject) => {
      this.#pending.push({ id, resolve, reject });
      this.worker.postMessage({ id, sql, params, camelCase } satisfies EngineRequest);
    });
  }

  /** Closes PGlite (its files are consistent afterwards) and ends the thread. */
  async close(): Promise<void> {
    if (this.#stopped) return;
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.ref();
    this.worker.postMessage({ close: true });
    await exited;
  }

  #settle(reply: EngineReply): void {
    const next = this.#pending.peek();
    if (!next) return; // an answer after the thread stopped
    // The worker answers in order: another answer here means the two threads no longer agree on what is asked.
    if (next.id !== reply.id) return this.#stop(new Error(`the embedded database's thread answered statement ${reply.id} while ${next.id} was next`));
    const pending = this.#pending.shift()!;
    if (this.#pending.size === 0) this.worker.unref();
    // Reply 0 is the thread's start: its failure is not a database error.
    if (reply.error) {
      const { message, name: _name, stack: _stack, ...fields } = reply.error;
      return pending.reject(reply.id === 0 ? new Error(message) : databaseError(message, fields));
    }
    const values = reply.values ?? [];
    if (reply.bytea) {
      for (const row of values) {
        for (const i of reply.bytea) {
          const value = row[i];
          if (value instanceof Uint8Array) row[i] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
        }
      }
    }
    pending.resolve({ rows: rowsOf({ columns: reply.columns ?? [], values }), command: reply.command, rowCount: reply.rowCount });
  }

  #stop(err: Error): void {
    this.#stopped ??= err;
    for (const pending of this.#pending.drain()) pending.reject(this.#stopped);
  }
}
