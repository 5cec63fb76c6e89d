import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

// PGlite does nothing to stop two processes opening one data directory, and that corrupts it.
// Whoever opens the directory (the server, or the admin CLI when no server runs) holds this lock file.
// The server also writes where its loopback admin endpoint is, so the CLI can go through it.

export interface LockInfo {
  pid: number;
  owner: 'server' | 'cli';
  startedAt: string;
  /** Set by a listening server: the port and token of its loopback admin endpoint. */
  adminPort?: number;
  adminToken?: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly holder: LockInfo,
    dataDir: string,
  ) {
    super(
      `data directory ${dataDir} is in use by ${holder.owner === 'server' ? 'a running server' : 'an admin command'} ` +
        `(pid ${holder.pid}, since ${holder.startedAt}); only one process may open the embedded database`,
    );
  }
}

export interface DataDirLock {
  readonly info: LockInfo;
  /** Records the admin endpoint of the server holding the lock. */
  publishAdmin(port: number): string;
  release(): void;
}

export function lockFile(dataDir: string): string {
  return path.join(dataDir, 'partner-api.lock');
}

/** Takes the lock or throws DataDirLockedError; a lock left by a dead process is taken over. */
export function acquireDataDirLock(dataDir: string, owner: LockInfo['owner']): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = lockFile(dataDir);
  const info: LockInfo = { pid: process.pid, owner, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(info), { flag: 'wx', mode: 0o600 });
      return handle(file, info);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readLock(file);
      if (holder && isAlive(holder.pid) && holder.pid !== process.pid) throw new DataDirLockedError(holder, dataDir);
      fs.rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`could not take the lock ${file}`);
}

/** The current holder, if a live process holds the lock. */
export function liveLockHolder(dataDir: string): LockInfo | undefined {
  const holder = readLock(lockFile(dataDir));
  return holder && isAlive(holder.pid) ? holder : undefined;
}

function handle(file: string, info: LockInfo): DataDirLock {
  let released = false;
  return {
    info,
    publishAdmin(port) {
      const adminToken = randomBytes(24).toString('base64url');
      Object.assign(info, { adminPort: port, adminToken });
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(info), { mode: 0o600 });
      fs.renameSync(tmp, file);
      return adminToken;
    },
    release() {
      if (released) return;
      released = true;
      const holder = readLock(file);
      if (holder?.pid === info.pid) fs.rmSync(file, { force: true });
    },
  };
}

function readLock(file: string): LockInfo | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as LockInfo;
    return typeof parsed.pid === 'number' ? parsed : undefined;
  } catch {
    return undefined; // missing, or half-written by a crashed process: treat as no lock
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
