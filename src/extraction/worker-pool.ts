// A pool of reading workers (node:worker_threads) so pdf.js parsing and OCR never block the main thread, shared
// fairly between documents and tenants.
//
// A document is read in slices (read-slices.ts): a worker reads for about SLICE_MS (at least one page: one OCR'd
// page is a slice of its own), answers, and the document goes to the back of its lane in a FairQueue. So a
// 2,000-page file and a one-page invoice interleave instead of the invoice waiting for the file, and one tenant's
// queue of large files never starves another tenant. A worker keeps the documents it read last open between their
// slices; a slice that lands on another worker reopens the document from the pool's copy of the bytes.
//
// Guarantees: a job whose slice crashes its worker, or runs past the hard per-slice timeout (a hung worker: the
// last resort, since budgets end normal documents long before), fails alone with an UnreadableDocumentError and
// its worker is replaced; close() terminates every worker and fails queued jobs.

import os from 'node:os';
import { FairQueue } from './fair-queue.ts';
import type { OcrEngineName, OcrSettings, OcrStatus } from './ocr-engine.ts';
import { DEFAULT_READ_LIMITS, DocumentProgress, sliceError } from './read-slices.ts';
import type { ReadLimits, ReadOutcome, WorkerRequest, WorkerResponse } from './read-slices.ts';
import { UnreadableDocumentError } from './types.ts';
import { createInferenceLock, releaseHeldBy } from './inference-lock.ts';
import { askToLeave, startWorker } from '../platform/lib/worker-thread.ts';
import { releaseFreedMemory } from '../platform/lib/malloc-trim.ts';
import { siblingModule } from '../platform/lib/module-file.ts';
import type { Job, ReadJobInput, ReadPoolOptions, RunOptions, Slot } from './worker-pool-options.ts';
import { DEFAULT_READER_NICE } from './worker-priority.ts';

export type { ReadJobInput, ReadPoolOptions, RunOptions };

/** Under the 60 s at which clients commonly give up; only a hung worker gets near it (a slice is a page or ~SLICE_MS). */
const DEFAULT_SLICE_TIMEOUT_MS = 55_000;
/** Long enough that a slice is mostly reading rather than messaging; short enough that a small document waits little. */
const SLICE_MS = 300;
/** Documents a worker keeps open between slices (the most recent ones); each holds its bytes and parsed objects. */
const OPEN_PER_WORKER = 2;
/** How long close() waits for a worker to finish its native work and leave before it terminates the thread. */
const SHUTDOWN_GRACE_MS = 10_000;
/**
 * A worker idle this long leaves, and its memory with it (its OCR models and their buffers: ~300–450 MB a busy
 * worker); the next document starts a fresh one (its models load in ~0.3 s).
 */
const IDLE_RELEASE_MS = 60_000;
const SHARED_LANE = '';

export class ReadPool {
  readonly size: number;
  private readonly timeoutMs: number;
  private readonly limits: ReadLimits;
  private readonly sliceMs: number;
  private readonly idleReleaseMs: number;
  private readonly workerUrl: URL;
  private readonly slots: Slot[] = [];
  private readonly queue = new FairQueue<Job>();
  private nextId = 1;
  private closed = false;
  /** Workers replaced after a crash or timeout (observability/tests). */
  replacedWorkers = 0;
  private readonly ocr: OcrSettings;
  private readonly nice: number;
  private readonly onOcrStatus: ((status: OcrStatus) => void) | undefined;
  /** What the workers' OCR engine is, once one has loaded it. */
  private ocrLoaded: OcrStatus | null = null;
  private ocrWaiters: Array<(status: OcrStatus | null) => void> = [];
  /** A job has started since the pool last gave freed memory back. */
  private busySinceTrim = false;

  constructor(options: ReadPoolOptions = {}) {
    const parallel = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
    this.size = Math.max(1, Math.floor(options.size ?? parallel) || 1);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_SLICE_TIMEOUT_MS;
    this.limits = { ...DEFAULT_READ_LIMITS, ...options.limits };
    this.sliceMs = options.sliceMs ?? SLICE_MS;
    this.idleReleaseMs = options.idleReleaseMs ?? IDLE_RELEASE_MS;
    this.workerUrl = options.workerUrl ?? siblingModule('./read.worker', import.meta.url);
    // One model run at a time across the workers: two at once would hold ~400 MB more (inference-lock.ts).
    this.ocr = { ...options.ocr, inferenceLock: createInferenceLock() };
    this.onOcrStatus = options.onOcrStatus;
    this.nice = options.nice ?? DEFAULT_READER_NICE;
    if (options.warm) for (let i = 0; i < this.size; i++) loadOcr(this.spawn());
  }

  /** Read a document in a worker. Rejects with UnreadableDocumentError for unreadable content, crashes, timeouts. */
  run(input: ReadJobInput, options: RunOptions = {}): Promise<ReadOutcome> {
    const src = input.bytes;
    // Transferring to ourselves detaches the caller's view without copying the bytes.
    const bytes =
      options.transfer && src.buffer instanceof ArrayBuffer && !isPooled(src)
        ? new Uint8Array(structuredClone(src.buffer, { transfer: [src.buffer] }))
        : src.slice();
    const progress = new DocumentProgress(input.fileType, this.limits, this.sliceMs, input.preprocess, input.einvoice);
    return this.enqueue(options.lane ?? SHARED_LANE, bytes, progress, options.timeoutMs ?? this.timeoutMs);
  }

  /** Test hook: a job that makes its worker exit abruptly (as a native crash or OOM would). */
  crashOneWorker(): Promise<ReadOutcome> {
    return this.enqueue(SHARED_LANE, new Uint8Array(0), null, this.timeoutMs);
  }

  /** Worker threads currently alive (spawned lazily, up to `size`). */
  get workers(): number {
    return this.slots.length;
  }

  /** Jobs waiting for a worker (a document between two of its slices included). */
  get queued(): number {
    return this.queue.size;
  }

  /** The OCR engine the workers run, once one has loaded it. */
  get ocrEngine(): OcrEngineName | null {
    return this.ocrLoaded?.engine ?? null;
  }

  /** Jobs waiting for a worker plus jobs running. */
  get pending(): number {
    return this.queue.size + this.slots.filter((s) => s.job).length;
  }

  /**
   * The OCR engine the workers run: a worker reports it once it has loaded it (workers load it when a job first needs
   * it; if none has, one is asked to, and started for that if none runs). Null when none reported within `timeoutMs`
   * (still loading) or the pool is closed.
   */
  async ocrStatus(timeoutMs = 20_000): Promise<OcrStatus | null> {
    if (this.ocrLoaded || this.closed) return this.ocrLoaded;
    loadOcr(this.slots[0] ?? this.spawn());
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), timeoutMs);
      this.ocrWaiters.push((s) => (clearTimeout(timer), resolve(s)));
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const w of this.ocrWaiters.splice(0)) w(null);
    const err = new Error('the document reader was closed');
    for (const job of this.queue.drain()) job.reject(err);
    await Promise.all(
      this.slots.splice(0).map(async (slot) => {
        slot.dead = true;
        if (slot.idleTimer) clearTimeout(slot.idleTimer);
        this.finish(slot)?.reject(err);
        await askToLeave(slot.worker, SHUTDOWN_GRACE_MS);
      }),
    );
  }

  private enqueue(lane: string, bytes: Uint8Array, progress: DocumentProgress | null, timeoutMs: number): Promise<ReadOutcome> {
    if (this.closed) return Promise.reject(new Error('the document reader is closed'));
    return new Promise<ReadOutcome>((resolve, reject) => {
      this.queue.push(lane, { id: this.nextId++, lane, bytes, progress, timeoutMs, resolve, reject });
      this.pump();
    });
  }

  private spawn(): Slot {
    const worker = startWorker(this.workerUrl, { ocr: this.ocr, nice: this.nice });
    const slot: Slot = { worker, job: null, timer: null, dead: false, open: [], idleTimer: null };
    worker.on('message', (res: WorkerResponse) => this.onMessage(slot, res));
    worker.on('error', (err: Error) => this.onFailure(slot, `the reading worker failed: ${err.message}`));
    const holder = worker.threadId;
    worker.on('exit', (code) => {
      releaseHeldBy(this.ocr.inferenceLock!, holder);
      this.onFailure(slot, `the reading worker exited unexpectedly (code ${code})`);
    });
    worker.unref();
    this.slots.push(slot);
    return slot;
  }

  private pump(): void {
    if (this.closed) return;
    for (;;) {
      const idle = this.slots.filter((s) => !s.job && !s.dead);
      if (idle.length === 0 && this.slots.length >= this.size) return;
      const job = this.queue.take();
      if (!job) {
        // The pool has just gone quiet: what the reading freed goes back to the OS (malloc-trim.ts).
        if (idle.length === this.slots.length && this.busySinceTrim) {
          this.busySinceTrim = false;
          void releaseFreedMemory();
        }
        return this.releaseWhenIdle(idle);
      }
      this.busySinceTrim = true;
      // Fairness picks the job; among idle workers, one that has its document open saves reopening it.
      this.start(idle.find((s) => s.open.includes(job.id)) ?? idle[0] ?? this.spawn(), job);
    }
  }

  /** Idle workers that hold no document between its slices leave after `idleReleaseMs` unless given work first. */
  private releaseWhenIdle(idle: Slot[]): void {
    if (this.idleReleaseMs <= 0) return;
    for (const slot of idle) {
      if (slot.idleTimer) continue;
      slot.idleTimer = setTimeout(() => {
        slot.idleTimer = null;
        if (slot.job || slot.dead || this.closed || slot.open.length > 0) return;
        slot.dead = true;
        this.slots.splice(this.slots.indexOf(slot), 1);
        // Its models and buffers are freed when the thread ends; give them back to the OS then.
        void askToLeave(slot.worker, SHUTDOWN_GRACE_MS).then(releaseFreedMemory);
      }, this.idleReleaseMs);
      slot.idleTimer.unref();
    }
  }

  private start(slot: Slot, job: Job): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    slot.job = job;
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      this.fail(
        slot,
        new UnreadableDocumentError(`reading the document stalled: one step took longer than ${Math.round(job.timeoutMs / 1000)} s and it was stopped`),
      );
    }, job.timeoutMs);
    try {
      slot.worker.postMessage(this.request(slot, job));
    } catch (err) {
      this.finish(slot);
      this.settle(job, new UnreadableDocumentError(`the document could not be handed to a reading worker (${(err as Error).message})`));
    }
  }

  /** The job's next slice for this worker, with the bytes unless the worker has the document open. */
  private request(slot: Slot, job: Job): WorkerRequest {
    if (!job.progress) return { type: 'crash', id: job.id };
    const spec = job.progress.nextSlice();
    // An image (or an XML file) is read in one slice: nothing stays open.
    if (spec.fileType !== 'pdf') return { type: 'slice', id: job.id, bytes: job.bytes, spec };
    const isOpen = slot.open.includes(job.id);
    slot.open = [...slot.open.filter((id) => id !== job.id), job.id];
    if (slot.open.length > OPEN_PER_WORKER) slot.worker.postMessage({ type: 'close', id: slot.open.shift()! } satisfies WorkerRequest);
    return isOpen ? { type: 'slice', id: job.id, spec } : { type: 'slice', id: job.id, bytes: job.bytes, spec };
  }

  private finish(slot: Slot): Job | null {
    const job = slot.job;
    slot.job = null;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    if (!slot.dead) slot.worker.unref();
    return job;
  }

  /** The job is over: workers that hold its document close it, and the caller gets the outcome or the error. */
  private settle(job: Job, outcome: ReadOutcome | Error): void {
    for (const slot of this.slots) {
      if (!slot.open.includes(job.id)) continue;
      slot.open = slot.open.filter((id) => id !== job.id);
      if (!slot.dead) slot.worker.postMessage({ type: 'close', id: job.id } satisfies WorkerRequest);
    }
    if (outcome instanceof Error) job.reject(outcome);
    else job.resolve(outcome);
  }

  private onMessage(slot: Slot, res: WorkerResponse): void {
    if ('type' in res) return this.onOcrLoaded(res.status, res.error);
    if (!slot.job || slot.job.id !== res.id) return;
    const job = this.finish(slot)!;
    if (!res.ok) this.settle(job, sliceError(res));
    else {
      const progress = job.progress!;
      progress.absorb(res.result);
      // Not done: to the back of its lane, so every other document gets a slice first.
      if (progress.done) this.settle(job, progress.outcome());
      else this.queue.push(job.lane, job);
    }
    this.pump();
  }

  private onOcrLoaded(status: OcrStatus, error?: string): void {
    if (error) return;
    const changed = !this.ocrLoaded || this.ocrLoaded.engine !== status.engine;
    if (changed) this.onOcrStatus?.(status);
    if (!this.ocrLoaded || status.fallbackReason) this.ocrLoaded = status;
    for (const w of this.ocrWaiters.splice(0)) w(this.ocrLoaded);
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
    if (job) this.settle(job, err);
    this.pump();
  }
}

/** Node's small Buffers share one pooled ArrayBuffer, which must not (and cannot) be transferred. */
function isPooled(b: Uint8Array): boolean {
  return b.byteOffset !== 0 || b.byteLength !== b.buffer.byteLength;
}

/** Asks a worker to load its OCR engine now (it reports `ocr-status`); otherwise it loads when a page needs it. */
function loadOcr(slot: Slot): void {
  slot.worker.postMessage({ type: 'load-ocr' } satisfies WorkerRequest);
}
