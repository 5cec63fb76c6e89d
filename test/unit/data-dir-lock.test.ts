import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { acquireDataDirLock, DataDirLockedError, liveLockHolder, lockFile } from '../../src/app/admin/data-dir-lock.ts';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'lock-test-'));

test('one holder at a time; released locks can be taken again', () => {
  const dir = tmp();
  const lock = acquireDataDirLock(dir, 'server');
  expect(liveLockHolder(dir)).toMatchObject({ pid: process.pid, owner: 'server' });
  // another process holding it: simulate with the parent pid, which is alive
  writeFileSync(lockFile(dir), JSON.stringify({ pid: process.ppid, owner: 'server', startedAt: 'then' }));
  expect(() => acquireDataDirLock(dir, 'cli')).toThrow(DataDirLockedError);
  expect(() => acquireDataDirLock(dir, 'cli')).toThrow(/in use by a running server \(pid \d+/);
  writeFileSync(lockFile(dir), JSON.stringify(lock.info));
  lock.release();
  expect(existsSync(lockFile(dir))).toBe(false);
  acquireDataDirLock(dir, 'cli').release();
});

test('a lock left by a dead process is taken over', () => {
  const dir = tmp();
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
  writeFileSync(lockFile(dir), JSON.stringify({ pid: Number(dead), owner: 'server', startedAt: 'then' }));
  expect(liveLockHolder(dir)).toBeUndefined();
  const lock = acquireDataDirLock(dir, 'server');
  expect(liveLockHolder(dir)?.pid).toBe(process.pid);
  lock.release();
});

test('the server publishes its admin port and a token in the lock file', () => {
  const dir = tmp();
  const lock = acquireDataDirLock(dir, 'server');
  const token = lock.publishAdmin(4321);
  expect(liveLockHolder(dir)).toMatchObject({ adminPort: 4321, adminToken: token });
  lock.release();
});
