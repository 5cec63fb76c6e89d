// The reading workers (and ONNX Runtime's threads they start) run at READER_NICE, below the event loop; the main
// thread keeps its priority. Linux only: /proc shows each thread's nice value.

import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { afterEach, expect, test } from 'vitest';
import { ReadPool } from '../../../src/extraction/worker-pool.ts';

/** Each thread of this process and its nice value (/proc/self/task/<tid>/stat, field 19). */
function threadNices(): Map<number, number> {
  const nices = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      nices.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return nices;
}

/** The threads started since `before`, with their nice values, once the pool's OCR engine has loaded. */
async function threadsOf(pool: ReadPool, before: Map<number, number>): Promise<number[]> {
  expect((await pool.ocrStatus(60_000))?.engine).toBe('ppocr');
  return [...threadNices()].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
}

let pool: ReadPool | undefined;
afterEach(() => pool?.close());
const base = os.getPriority(0);

test('a reading worker and the ONNX Runtime threads it starts run at nice 10 by default; the event loop keeps its own', async () => {
  const before = threadNices();
  pool = new ReadPool({ size: 1, ocr: { threads: 2 } });
  const nices = await threadsOf(pool, before);
  const lowered = nices.filter((nice) => nice === Math.max(base, 10));
  // The worker's thread and ONNX Runtime's (an intra-op thread per model: detection, recognition).
  expect(lowered.length).toBeGreaterThanOrEqual(3);
  // Under tsx (these tests) the worker's TypeScript bootstrap starts Node's module-hooks thread before the entry runs:
  // it keeps the process's priority (it only resolves modules). From the built dist/ every new thread is at 10.
  expect(nices.length - lowered.length).toBeLessThanOrEqual(1);
  expect(threadNices().get(process.pid)).toBe(base);
});

test('READER_NICE 0: the workers share the cores evenly with the event loop', async () => {
  const before = threadNices();
  pool = new ReadPool({ size: 1, ocr: { threads: 2 }, nice: 0 });
  const nices = await threadsOf(pool, before);
  expect(nices.length).toBeGreaterThanOrEqual(3);
  expect(nices).toEqual(nices.map(() => base));
});
