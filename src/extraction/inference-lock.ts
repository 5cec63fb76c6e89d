// One OCR model run at a time across the reading workers (issue 17, memory). A detection run on a receipt photo
// holds ~300 MB of activations for a moment, a recognition batch ~100 MB; two workers running them at once put the
// server over 1 GB. Each run already uses every core (ONNX Runtime's intra-op threads, ppocr/engine.ts), so taking
// turns costs little throughput while the rest of a reading (decoding, cropping, CTC, the lexicon) still overlaps.
//
// The lock is one Int32 in a SharedArrayBuffer the pool hands every worker: 0 when free, else the holder's threadId.
// Waiting is Atomics.waitAsync, so a waiting worker's event loop keeps answering the pool. When a worker ends while
// holding it (crash, timeout, termination), the pool frees it in the worker's 'exit' handler (`releaseHeldBy`).

/** Atomics.waitAsync (Node ≥ 16; not in TypeScript's ES2023 lib). */
type WaitAsync = (array: Int32Array, index: number, value: number) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

/** The shared memory of a new lock, for the pool to pass in every worker's workerData. */
export function createInferenceLock(): SharedArrayBuffer {
  return new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
}

/** Runs `run` while holding the lock as `holder` (a worker's threadId, never 0); waits for it without blocking. */
export async function exclusively<T>(lock: SharedArrayBuffer, holder: number, run: () => Promise<T>): Promise<T> {
  const cell = new Int32Array(lock);
  let keepAlive: NodeJS.Timeout | undefined;
  for (;;) {
    const current = Atomics.compareExchange(cell, 0, 0, holder);
    if (current === 0) break;
    const wait = waitAsync(cell, 0, current);
    if (!wait.async) continue;
    // A pending waitAsync does not keep the thread's event loop alive: with nothing else to do, it would end.
    keepAlive ??= setInterval(() => {}, 60_000);
    await wait.value;
  }
  clearInterval(keepAlive);
  try {
    return await run();
  } finally {
    releaseHeldBy(lock, holder);
  }
}

/** Frees the lock if `holder` (a worker that has ended) still holds it. */
export function releaseHeldBy(lock: SharedArrayBuffer, holder: number): void {
  const cell = new Int32Array(lock);
  if (Atomics.compareExchange(cell, 0, holder, 0) === holder) Atomics.notify(cell, 0);
}
