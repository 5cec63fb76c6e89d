// Freed native memory given back to the operating system. glibc's malloc keeps what OCR, image decoding and the
// database free in its heap for reuse, and a heap fragmented by a burst of reading keeps the process's RSS near its
// peak long after (measured: 760 MB–1 GB an idle minute after 8 receipts, against ~300 MB before them).
// malloc_trim(0) returns every free page. The reading pool calls it when it has gone quiet; it runs on a libuv
// thread (koffi's async call), since after a burst it takes ~150 ms that the event loop should not wait.
// koffi is an FFI library whose prebuilt binary comes with its npm package; elsewhere than Linux with glibc this
// does nothing.

import { createRequire } from 'node:module';

type Trim = () => Promise<void>;
let trim: Trim | null | undefined;
let running: Promise<boolean> | null = null;

/**
 * Gives free heap memory back to the OS; resolves true when done, false where that is not possible (not glibc, or
 * koffi failed to load). A call while one runs shares it: a second trim would find nothing more to give back.
 */
export function releaseFreedMemory(): Promise<boolean> {
  if (trim === undefined) trim = loadMallocTrim();
  if (!trim) return Promise.resolve(false);
  running ??= trim().then(
    () => true,
    () => false,
  );
  void running.finally(() => (running = null));
  return running;
}

function loadMallocTrim(): Trim | null {
  if (process.platform !== 'linux') return null;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    const mallocTrim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)');
    return () => new Promise<void>((resolve, reject) => mallocTrim.async(0, (err: unknown) => (err ? reject(err) : resolve())));
  } catch {
    // musl (Alpine) or another libc: no malloc_trim; memory is then returned as the allocator sees fit.
    return null;
  }
}
