import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createInferenceLock, exclusively, releaseHeldBy } from '../../src/extraction/inference-lock.ts';
import { startWorker } from '../../src/platform/lib/worker-thread.ts';

const entry = new URL('../fixtures/scripts/inference-lock-worker.ts', import.meta.url);

describe('inference lock (one OCR model run at a time across reading workers)', () => {
  it('three worker threads taking turns never hold it together, and every round runs', async () => {
    const lock = createInferenceLock();
    const counters = new SharedArrayBuffer(8);
    const workers = [0, 1, 2].map(() => startWorker(entry, { lock, counters, rounds: 15, holdMs: 3 }));
    await Promise.all(workers.map((w) => once(w, 'message')));
    await Promise.all(workers.map((w) => w.terminate()));
    const [active, maxActive] = new Int32Array(counters);
    expect(maxActive).toBe(1);
    expect(active).toBe(0);
    expect(new Int32Array(lock)[0]).toBe(0);
  });

  it('a holder that is gone is released for it (the pool does it when a worker exits), and a waiter goes on', async () => {
    const lock = createInferenceLock();
    let release!: () => void;
    const held = exclusively(lock, 41, () => new Promise<void>((r) => (release = r)));
    let ran = false;
    const waiter = exclusively(lock, 42, async () => {
      ran = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(ran).toBe(false);
    releaseHeldBy(lock, 7); // not the holder: nothing happens
    await new Promise((r) => setTimeout(r, 20));
    expect(ran).toBe(false);
    releaseHeldBy(lock, 41); // the holder "exited" without releasing
    await waiter;
    expect(ran).toBe(true);
    release();
    await held;
    expect(new Int32Array(lock)[0]).toBe(0);
  });

  it('an error in the run releases the lock and reaches the caller', async () => {
    const lock = createInferenceLock();
    await expect(exclusively(lock, 5, () => Promise.reject(new Error('model failed')))).rejects.toThrow('model failed');
    expect(new Int32Array(lock)[0]).toBe(0);
    await expect(exclusively(lock, 6, async () => 'next')).resolves.toBe('next');
  });
});
