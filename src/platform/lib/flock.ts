// flock(2) through koffi (FFI; its prebuilt binary comes with its npm package, nothing is compiled). The kernel keeps
// such a lock on one open file description and drops it when that is closed or its process ends, however it ends:
// unlike a pid in a file, it cannot be outlived, reused by another pid namespace, or taken over by a race.
// Only glibc's libc.so.6 is loaded; elsewhere every call throws FlockUnavailableError (see docs/decisions.md).

import { createRequire } from 'node:module';

const LOCK_SH = 1;
const LOCK_EX = 2;
const LOCK_NB = 4;

export class FlockUnavailableError extends Error {}

type TryFlock = (fd: number, operation: number) => 'locked' | 'busy';
let loaded: TryFlock | FlockUnavailableError | undefined;

/**
 * Tries to lock the open file `fd` without waiting: true when this open file now holds the lock, false when another
 * open file (in this process or another) holds a conflicting one. A shared lock conflicts only with an exclusive one.
 */
export function tryFlock(fd: number, mode: 'exclusive' | 'shared'): boolean {
  loaded ??= loadFlock();
  if (loaded instanceof Error) throw loaded;
  return loaded(fd, (mode === 'exclusive' ? LOCK_EX : LOCK_SH) | LOCK_NB) === 'locked';
}

/** flock from `library`, or the error that says why the embedded database cannot be locked here. */
export function loadFlock(library = 'libc.so.6'): TryFlock | FlockUnavailableError {
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    const flock = koffi.load(library).func('int flock(int fd, int operation)') as (fd: number, operation: number) => number;
    const { EWOULDBLOCK, EINTR } = koffi.os.errno;
    return (fd, operation) => {
      for (;;) {
        if (flock(fd, operation) === 0) return 'locked';
        const errno = koffi.errno();
        if (errno === EWOULDBLOCK) return 'busy';
        if (errno !== EINTR) throw new Error(`flock(${fd}) failed with errno ${errno}`);
      }
    };
  } catch (err) {
    return new FlockUnavailableError(
      `the embedded database locks DATA_DIR with flock(2) from glibc (${library}), which could not be loaded here ` +
        `(${err instanceof Error ? err.message : String(err)}); run on Linux with glibc, or set DATABASE_URL`,
    );
  }
}
