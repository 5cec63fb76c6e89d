import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { acquireDataDirLock, DataDirLockedError, liveLockHolder, lockFile, ownerFile } from '../../src/app/admin/data-dir-lock.ts';
import { FlockUnavailableError, loadFlock } from '../../src/platform/lib/flock.ts';
import { ROOT } from '../helpers/process.ts';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'lock-test-'));
const children: ChildProcess[] = [];
afterAll(() => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL')));

/** Another process that takes the lock and keeps it until it is killed. */
async function holdInChild(dir: string): Promise<ChildProcess> {
  const lockModule = path.join(ROOT, 'src/app/admin/data-dir-lock.ts');
  const script = `const m = await import(${JSON.stringify(lockModule)}); m.acquireDataDirLock(${JSON.stringify(dir)}, 'server'); console.log('held'); setInterval(() => {}, 1e9);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT });
  children.push(child);
  let out = '';
  child.stderr.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => String(d).includes('held') && resolve());
    child.on('exit', (code) => reject(new Error(`the holder exited with ${code}: ${out}`)));
  });
  return child;
}

test('a second acquire is refused while the lock is held, also in the same process (flock is per open file)', () => {
  const dir = tmp();
  const lock = acquireDataDirLock(dir, 'server');
  expect(() => acquireDataDirLock(dir, 'cli')).toThrow(DataDirLockedError);
  expect(() => acquireDataDirLock(dir, 'server')).toThrow(
    `data directory ${dir} is in use by a running server (pid ${process.pid}, host ${os.hostname()}, since ${lock.info.startedAt})`,
  );
  expect(liveLockHolder(dir)).toEqual(lock.info);
  lock.release();
  expect(liveLockHolder(dir)).toBeUndefined();
  acquireDataDirLock(dir, 'cli').release();
});

test('another process holding the lock: refused even without its owner record, free once it is killed', async () => {
  const dir = tmp();
  const child = await holdInChild(dir);
  expect(liveLockHolder(dir)).toMatchObject({ pid: child.pid, owner: 'server', host: os.hostname() });
  expect(() => acquireDataDirLock(dir, 'cli')).toThrow(`(pid ${child.pid}, host ${os.hostname()}, since `);
  // The OS lock decides, not the record: with the record gone the holder is still there, only unnamed.
  rmSync(ownerFile(dir));
  expect(liveLockHolder(dir)).toEqual({ owner: 'unknown' });
  expect(() => acquireDataDirLock(dir, 'server')).toThrow(`in use by another process (its owner record is not readable)`);
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  expect(liveLockHolder(dir)).toBeUndefined();
  acquireDataDirLock(dir, 'server').release();
}, 30_000);

test('a free lock is taken over whatever a stale record says (a live pid is not a holder)', () => {
  const dir = tmp();
  // The parent process is alive, and the record claims it: still stale, nothing holds the lock.
  const stale = { host: os.hostname(), machineId: null, bootId: null, pid: process.ppid, owner: 'server', startedAt: 'then', adminPort: 1, adminToken: 'x' };
  writeFileSync(ownerFile(dir), JSON.stringify(stale));
  expect(liveLockHolder(dir)).toBeUndefined();
  const lock = acquireDataDirLock(dir, 'server');
  expect(liveLockHolder(dir)).toEqual(lock.info);
  expect(lock.info).toMatchObject({ pid: process.pid, owner: 'server' });
  lock.release();
});

test('release clears only its own record and never removes the lock file', () => {
  const dir = tmp();
  const first = acquireDataDirLock(dir, 'server');
  first.release();
  expect(existsSync(ownerFile(dir))).toBe(false);
  expect(existsSync(lockFile(dir))).toBe(true);
  const second = acquireDataDirLock(dir, 'cli');
  first.release(); // a second release of the first holder leaves the new holder alone
  expect(liveLockHolder(dir)).toEqual(second.info);
  // A record that is not ours (written behind our back) is left as it is.
  const foreign = { ...second.info, pid: second.info.pid + 1 };
  writeFileSync(ownerFile(dir), JSON.stringify(foreign));
  second.release();
  expect(existsSync(ownerFile(dir))).toBe(true);
  expect(existsSync(lockFile(dir))).toBe(true);
  expect(liveLockHolder(dir)).toBeUndefined();
});

test('the server publishes its admin port and a token in a record only its owner can read', () => {
  const dir = tmp();
  const lock = acquireDataDirLock(dir, 'server');
  const token = lock.publishAdmin(4321);
  expect(liveLockHolder(dir)).toMatchObject({ owner: 'server', pid: process.pid, adminPort: 4321, adminToken: token });
  expect(statSync(ownerFile(dir)).mode & 0o777).toBe(0o600);
  lock.release();
});

test('where flock cannot be loaded the lock refuses, saying what to do', () => {
  const missing = loadFlock(['libno-such-libc.so.9', 'libno-such-libc.so.8']);
  expect(missing).toBeInstanceOf(FlockUnavailableError);
  expect((missing as Error).message).toMatch(
    /^the embedded database locks DATA_DIR with flock\(2\) from the C library, which could not be loaded here \(libno-such-libc\.so\.9: .*; libno-such-libc\.so\.8: .*\); run on Linux or macOS, or set DATABASE_URL$/,
  );
  // The second library is tried when the first does not load.
  expect(typeof loadFlock(['libno-such-libc.so.9', 'libc.so.6'])).toBe('function');
  expect(typeof loadFlock()).toBe('function');
});
