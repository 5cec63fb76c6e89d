// flock(2) through koffi (FFI; its prebuilt binary comes with its npm package, nothing is compiled). The kernel keeps
// such a lock on one open file description and drops it when that is closed or its process ends, however it ends:
// unlike a pid in a file, it cannot be outlived, reused by another pid namespace, or taken over by a race.
// The C library is glibc's libc.so.6 (or musl's) on Linux and libSystem on macOS; where none loads (Windows), every
// call throws FlockUnavailableError (see docs/decisions.md).

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

/** The C libraries that export flock on this platform, tried in order (LOCK_* have the same values in each). */
function cLibraries(): string[] {
  if (process.platform === 'darwin') return ['libSystem.B.dylib'];
  const arch = process.arch === 'x64' ? 'x86_64' : process.arch === 'arm64' ? 'aarch64' : process.arch;
  return ['libc.so.6', `libc.musl-${arch}.so.1`];
}

/** flock from the first of `libraries` that loads, or the error that says why the embedded database cannot be locked here. */
export function loadFlock(libraries = cLibraries()): TryFlock | FlockUnavailableError {
  const problems: string[] = [];
  for (const library of libraries) {
    try {
      return bind(library);
    } catch (err) {
      problems.push(`${library}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return new FlockUnavailableError(
    `the embedded database locks DATA_DIR with flock(2) from the C library, which could not be loaded here ` +
      `(${problems.join('; ')}); run on Linux or macOS, or set DATABASE_URL`,
  );
}

function bind(library: string): TryFlock {
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
}
