// A pool of reading workers (node:worker_threads) so pdf.js parsing and OCR never block the main thread.
//
// Workers are TypeScript (read.worker.ts). A worker thread does not get the module hooks of the main thread, and
// on Node 20 tsx's `--import tsx` loader only registers itself on the main thread, so `execArgv: ['--import', 'tsx']`
// is not enough. Instead each worker starts from a tiny inline bootstrap that registers tsx's ESM hooks *inside the
// worker* (tsx/esm/api `register()`) and then imports the .ts entry. This works the same under `tsx src/main.ts`,
// `node --import tsx`, vitest and plain node; tsx flags inherited from the parent are dropped so hooks are never
// registered twice (Node ≥ 22 would register them in workers too).
//
// Guarantees: a job that crashes its worker, or that runs past the per-job timeout, fails alone (with an
// UnreadableDocumentError) and its worker is replaced; close() terminates every worker and fails queued jobs.

import { createRequire } from 'node:module';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PreprocessOptions } from './ocr.ts';
import { UnreadableDocumentError, UnsupportedFileError } from './types.ts';
import type { FileType, PageText } from './types.ts';

export type WorkerRequest =
  | {
      type: 'read';
      id: number;
      buffer: ArrayBuffer;
      byteOffset: number;
      byteLength: number;
      fileType: FileType;
      ocrPdfPages?: boolean;
      preprocess?: Partial<PreprocessOptions>;
    }
  | { type: 'crash'; id: number };

export type WorkerResponse =
  | { id: number; ok: true; pages: PageText[] }
  | { id: number; ok: false; kind: 'unreadable' | 'unsupported' | 'error'; message: string };

export interface ReadPoolOptions {
  /** Number of worker threads; default os.availableParallelism() (min 1). */
  size?: number;
  /** Per-job time limit in ms (the job fails and its worker is replaced); default 55 000. */
  timeoutMs?: number;
  /** Start all workers (and their OCR engines) now instead of on first use. */
  warm?: boolean;
  /** Override the worker entry (tests). */
  workerUrl?: URL;
}

export interface ReadJobInput {
  bytes: Uint8Array;
  fileType: FileType;
  /** OCR PDF pages that have no text layer (default true). */
  ocrPdfPages?: boolean;
  preprocess?: Partial<PreprocessOptions>;
}

export interface RunOptions {
  /**
   * Hand `bytes`' underlying ArrayBuffer to the worker (zero-copy; the caller's buffer is detached and must not be
   * used afterwards). Default false: the pool makes one private copy and transfers that.
   */
  transfer?: boolean;
  timeoutMs?: number;
}

interface Job {
  id: number;
  msg: WorkerRequest;
  transferList: ArrayBuffer[];
  timeoutMs: number;
  resolve: (pages: PageText[]) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
  dead: boolean;
}

export const DEFAULT_JOB_TIMEOUT_MS = 55_000;

const require = createRequire(import.meta.url);

/** The parent's execArgv without tsx's own flags (the bootstrap registers tsx) and without inspector flags. */
function workerExecArgv(): string[] {
  const out: string[] = [];
  const args = process.execArgv;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    // Flags a worker may not take (Node refuses to start it with ERR_WORKER_INVALID_EXEC_ARGV).
    if (a.startsWith('--inspect') || a === '--expose-gc' || a === '--expose_gc') continue;
    if ((a === '--require' || a === '-r' || a === '--import' || a === '--loader' || a === '--experimental-loader') && i + 1 < args.length) {
      if (/[\\/]tsx[\\/]|^tsx(\/|$)/.test(args[i + 1]!)) {
        i++;
        continue;
      }
    }
    if (/^--(require|import|loader|experimental-loader)=.*tsx/.test(a)) continue;
    out.push(a);
  }
  return out;
}

let tsxApiUrl: string | undefined;
/** Inline (eval) worker code: register tsx in this thread, then load the TypeScript entry. */
function bootstrapCode(entry: URL): string {
  // tsx's exports map: "./esm/api" → import: ./dist/esm/api/index.mjs (its CJS twin cannot register ESM hooks).
  tsxApiUrl ??= pathToFileURL(require.resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs')).href;
  return `import(${JSON.stringify(tsxApiUrl)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
}

export class ReadPool {
  readonly size: number;
  private readonly timeoutMs: number;
  private readonly workerUrl: URL;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  /** Workers replaced after a crash or timeout (observability/tests). */
  replacedWorkers = 0;

  constructor(options: ReadPoolOptions = {}) {
    const parallel = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
    this.size = Math.max(1, Math.floor(options.size ?? parallel) || 1);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
    this.workerUrl = options.workerUrl ?? new URL('./read.worker.ts', import.meta.url);
    if (options.warm) for (let i = 0; i < this.size; i++) this.spawn();
  }

  /** Read a document in a worker. Rejects with UnreadableDocumentError for unreadable content, crashes, timeouts. */
  run(input: ReadJobInput, options: RunOptions = {}): Promise<PageText[]> {
    if (this.closed) return Promise.reject(new Error('the document reader is closed'));
    let buffer: ArrayBuffer;
    let byteOffset = 0;
    const byteLength = input.bytes.byteLength;
    const src = input.bytes;
    if (options.transfer && src.buffer instanceof ArrayBuffer && !isPooled(src)) {
      buffer = src.buffer;
      byteOffset = src.byteOffset;
    } else {
      const copy = new Uint8Array(byteLength);
      copy.set(src);
      buffer = copy.buffer;
    }
    const id = this.nextId++;
    const msg: WorkerRequest = {
      type: 'read',
      id,
      buffer,
      byteOffset,
      byteLength,
      fileType: input.fileType,
      ...(input.ocrPdfPages === undefined ? {} : { ocrPdfPages: input.ocrPdfPages }),
      ...(input.preprocess ? { preprocess: input.preprocess } : {}),
    };
    return this.enqueue(msg, [buffer], options.timeoutMs ?? this.timeoutMs);
  }

  /** Test hook: a job that makes its worker exit abruptly (as a native crash or OOM would). */
  crashOneWorker(): Promise<PageText[]> {
    if (this.closed) return Promise.reject(new Error('the document reader is closed'));
    const id = this.nextId++;
    return this.enqueue({ type: 'crash', id }, [], this.timeoutMs);
  }

  /** Worker threads currently alive (spawned lazily, up to `size`). */
  get workers(): number {
    return this.slots.length;
  }

  /** Jobs waiting for a worker plus jobs running. */
  get pending(): number {
    return this.queue.length + this.slots.filter((s) => s.job).length;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const err = new Error('the document reader was closed');
    for (const job of this.queue.splice(0)) job.reject(err);
    await Promise.all(
      this.slots.splice(0).map(async (slot) => {
        slot.dead = true;
        if (slot.timer) clearTimeout(slot.timer);
        const job = slot.job;
        slot.job = null;
        job?.reject(err);
        await slot.worker.terminate().catch(() => undefined);
      }),
    );
  }

  private enqueue(msg: WorkerRequest, transferList: ArrayBuffer[], timeoutMs: number): Promise<PageText[]> {
    return new Promise<PageText[]>((resolve, reject) => {
      this.queue.push({ id: msg.id, msg, transferList, timeoutMs, resolve, reject });
      this.pump();
    });
  }

  private spawn(): Slot {
    const worker = this.workerUrl.pathname.endsWith('.ts')
      ? new Worker(bootstrapCode(this.workerUrl), { eval: true, execArgv: workerExecArgv() })
      : new Worker(this.workerUrl, { execArgv: workerExecArgv() });
    const slot: Slot = { worker, job: null, timer: null, dead: false };
    worker.on('message', (res: WorkerResponse) => this.onMessage(slot, res));
    worker.on('error', (err: Error) => this.onFailure(slot, `the reading worker failed: ${err.message}`));
    worker.on('exit', (code) => this.onFailure(slot, `the reading worker exited unexpectedly (code ${code})`));
    worker.unref();
    this.slots.push(slot);
    return slot;
  }

  private pump(): void {
    if (this.closed) return;
    while (this.queue.length) {
      let slot = this.slots.find((s) => !s.job && !s.dead);
      if (!slot) {
        if (this.slots.length >= this.size) return;
        slot = this.spawn();
      }
      const job = this.queue.shift()!;
      this.start(slot, job);
    }
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      this.fail(slot, new UnreadableDocumentError(`reading the document took longer than ${Math.round(job.timeoutMs / 1000)} s and was stopped`));
    }, job.timeoutMs);
    try {
      slot.worker.postMessage(job.msg, job.transferList);
    } catch {
      try {
        // e.g. an untransferable buffer: fall back to copying.
        slot.worker.postMessage(job.msg);
      } catch (err) {
        this.finish(slot);
        job.reject(new UnreadableDocumentError(`the document could not be handed to a reading worker (${(err as Error).message})`));
        this.pump();
      }
    }
  }

  private finish(slot: Slot): Job | null {
    const job = slot.job;
    slot.job = null;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    if (!slot.dead) slot.worker.unref();
    return job;
  }

  private onMessage(slot: Slot, res: WorkerResponse): void {
    if (!slot.job || slot.job.id !== res.id) return;
    const job = this.finish(slot)!;
    if (res.ok) job.resolve(res.pages);
    else job.reject(res.kind === 'unreadable' ? new UnreadableDocumentError(res.message) : res.kind === 'unsupported' ? new UnsupportedFileError(res.message) : new Error(res.message));
    this.pump();
  }

  private onFailure(slot: Slot, message: string): void {
    if (slot.dead) return;
    this.fail(slot, new UnreadableDocumentError(message));
  }

  /** Fail the slot's job (if any), retire the worker, and let the queue continue on a fresh one. */
  private fail(slot: Slot, err: Error): void {
    if (slot.dead) return;
    slot.dead = true;
    const job = this.finish(slot);
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    void slot.worker.terminate().catch(() => undefined);
    if (!this.closed) this.replacedWorkers++;
    job?.reject(err);
    this.pump();
  }
}

/** Node's small Buffers share one pooled ArrayBuffer, which must not (and cannot) be transferred. */
function isPooled(b: Uint8Array): boolean {
  return b.byteOffset !== 0 || b.byteLength !== b.buffer.byteLength;
}
