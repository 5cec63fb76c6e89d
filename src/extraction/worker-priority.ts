// Reading workers run at a lower CPU priority than the event loop (READER_NICE, 10 by default). Reading a
// document is long work whose caller waits seconds anyway; a request waits milliseconds. At the same priority the
// kernel shared the cores evenly, and while four receipts were OCR'd a 35-item REST read fell to 44–68% of the
// throughput it had idle (p99 83–88 ms); with the workers at nice 10 it kept 92–104% (p99 49–53 ms), the receipts
// taking ~14% longer. The nice value is that of the worker's own thread (Linux keeps one per thread) and of the
// threads it starts afterwards — ONNX Runtime's, created when the worker loads its OCR models (sharp's image work runs
// on libuv's thread pool, shared with the main thread, at the process's priority). A worker never gets a higher
// priority than the process has: one started at nice 15 keeps 15 in its workers.

import os from 'node:os';

/** READER_NICE's default: the workers get roughly a tenth of a core's time when the event loop wants it all. */
export const DEFAULT_READER_NICE = 10;

/**
 * Lowers the calling thread's priority to `nice` (0–19). Only on Linux: elsewhere setpriority applies to the whole
 * process, which would slow the event loop with it. Best effort: a system that refuses leaves the thread as it was.
 */
export function lowerThreadPriority(nice: number): void {
  if (nice <= 0 || process.platform !== 'linux') return;
  try {
    if (os.getPriority(0) < nice) os.setPriority(0, nice);
  } catch {
    // a sandbox that forbids setpriority: the worker reads at the process's priority
  }
}
