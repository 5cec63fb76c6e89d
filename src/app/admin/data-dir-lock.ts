import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tryFlock } from '../../platform/lib/flock.ts';

// PGlite does nothing to stop two processes opening one data directory, and that corrupts it. Whoever opens the
// directory (the server, or the admin CLI when no server runs) holds an exclusive flock on DATA_DIR/partner-api.lock:
// the kernel admits one holder and drops the lock with its process, so pids (two containers are both PID 1) decide
// nothing. Beside it, the holder writes an owner record saying who it is and, for a server, where its loopback admin
// endpoint is; the record is believed only while the lock is held.

export interface LockInfo {
  /** os.hostname(): what a person recognises (a container's id). */
  host: string;
  /** /etc/machine-id and /proc/sys/kernel/random/boot_id where readable: which machine, which boot. */
  machineId: string | null;
  bootId: string | null;
  /** The holder's pid in its own pid namespace. */
  pid: number;
  owner: 'server' | 'cli';
  startedAt: string;
  /** Set by a listening server: the port and token of its loopback admin endpoint. */
  adminPort?: number;
  adminToken?: string;
}

/** A holder known only by its lock: its record is missing or unreadable (it has just taken the lock). */
export interface UnknownHolder {
  owner: 'unknown';
}

export type LockHolder = LockInfo | UnknownHolder;

export class DataDirLockedError extends Error {
  constructor(
    readonly holder: LockHolder,
    dataDir: string,
  ) {
    const who =
      holder.owner === 'unknown'
        ? 'another process (its owner record is not readable)'
        : `${holder.owner === 'server' ? 'a running server' : 'an admin command'} (pid ${holder.pid}, host ${holder.host}, since ${holder.startedAt})`;
    super(`data directory ${dataDir} is in use by ${who}; only one process may open the embedded database`);
  }
}

export interface DataDirLock {
  readonly info: LockInfo;
  /** Records the admin endpoint of the server holding the lock. */
  publishAdmin(port: number): string;
  /** Clears the owner record if it is still ours, then closes the lock's file (which drops the lock). */
  release(): void;
}

/** The file that is flocked. It is never removed: a new file would let a second process lock another inode. */
export function lockFile(dataDir: string): string {
  return path.join(dataDir, 'partner-api.lock');
}

/** The holder's owner record (mode 0600: it holds the admin token), replaced whole by a rename. */
export function ownerFile(dataDir: string): string {
  return path.join(dataDir, 'partner-api.owner.json');
}

/** A probe (liveLockHolder) holds a shared lock for a moment; an exclusive attempt that meets one tries again. */
const ATTEMPTS = 5;
const ATTEMPT_WAIT_MS = 20;

/** Takes the lock or throws DataDirLockedError; a free lock is taken whatever an old owner record says. */
export function acquireDataDirLock(dataDir: string, owner: LockInfo['owner']): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const fd = fs.openSync(lockFile(dataDir), 'a', 0o600);
  try {
    for (let attempt = 1; !tryFlock(fd, 'exclusive'); attempt++) {
      if (attempt === ATTEMPTS) throw new DataDirLockedError(readHolder(dataDir), dataDir);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ATTEMPT_WAIT_MS);
    }
    const info: LockInfo = { ...identity(), owner, startedAt: new Date().toISOString() };
    writeRecord(dataDir, info);
    return handle(dataDir, fd, info);
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
}

/** Who holds the lock, decided by probing the OS lock: undefined when it is free, whatever the owner record says. */
export function liveLockHolder(dataDir: string): LockHolder | undefined {
  let fd: number;
  try {
    fd = fs.openSync(lockFile(dataDir), 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined; // never locked
    throw err;
  }
  try {
    return tryFlock(fd, 'shared') ? undefined : readHolder(dataDir);
  } finally {
    fs.closeSync(fd); // also drops the probe's shared lock
  }
}

function handle(dataDir: string, fd: number, info: LockInfo): DataDirLock {
  let released = false;
  return {
    info,
    publishAdmin(port) {
      const adminToken = randomBytes(24).toString('base64url');
      Object.assign(info, { adminPort: port, adminToken });
      writeRecord(dataDir, info);
      return adminToken;
    },
    release() {
      if (released) return;
      released = true;
      try {
        const record = readHolder(dataDir);
        if (record.owner !== 'unknown' && sameHolder(record, info)) fs.rmSync(ownerFile(dataDir), { force: true });
      } finally {
        fs.closeSync(fd);
      }
    },
  };
}

function identity(): Pick<LockInfo, 'host' | 'machineId' | 'bootId' | 'pid'> {
  return { host: os.hostname(), machineId: readId('/etc/machine-id'), bootId: readId('/proc/sys/kernel/random/boot_id'), pid: process.pid };
}

function sameHolder(a: LockInfo, b: LockInfo): boolean {
  return a.host === b.host && a.machineId === b.machineId && a.bootId === b.bootId && a.pid === b.pid && a.startedAt === b.startedAt;
}

function writeRecord(dataDir: string, info: LockInfo): void {
  const tmp = `${ownerFile(dataDir)}.${randomBytes(6).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(info), { flag: 'wx', mode: 0o600 });
  fs.renameSync(tmp, ownerFile(dataDir));
}

function readHolder(dataDir: string): LockHolder {
  try {
    const parsed = JSON.parse(fs.readFileSync(ownerFile(dataDir), 'utf8')) as LockInfo;
    if (typeof parsed.pid === 'number' && (parsed.owner === 'server' || parsed.owner === 'cli')) return parsed;
  } catch {
    // missing (removed by a clean release, or not written yet): nothing to name
  }
  return { owner: 'unknown' };
}

function readId(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8').trim() || null;
  } catch {
    return null;
  }
}
