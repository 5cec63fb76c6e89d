import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, inject, test } from 'vitest';
import { liveLockHolder } from '../../src/app/admin/data-dir-lock.ts';
import { ROOT, serverEnv } from '../helpers/process.ts';

// What a process manager does to `npm start`: SIGTERM to the npm process must stop the server (no orphaned node
// process, the data-dir lock released), and a busy port must be said at once, in one line.

const running: ChildProcess[] = [];
afterAll(() => running.forEach((p) => p.exitCode === null && p.kill('SIGKILL')));

/** The pids of a process's children (procps `pgrep -P`). */
const childrenOf = (pid: number): number[] => {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('SIGTERM to `npm start` stops the server it runs and releases the data directory', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'partner-api-npm-start-'));
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    env: serverEnv({ DATA_DIR: dataDir, EMBEDDINGS_CACHE_DIR: inject('wordVectorCacheDir') }),
  });
  running.push(npm);
  let out = '';
  npm.stdout.on('data', (d) => (out += d));
  npm.stderr.on('data', (d) => (out += d));
  await expect.poll(() => /listening on http:\/\/\S+:(\d+)/.test(out), { timeout: 150_000, interval: 200 }).toBe(true);
  // The banner is on stderr; stdout holds only JSON log lines.
  const tree = [npm.pid!, ...childrenOf(npm.pid!)].flatMap((p) => [p, ...childrenOf(p)]);
  expect(liveLockHolder(dataDir)).toMatchObject({ owner: 'server' });
  npm.kill('SIGTERM');
  await expect.poll(() => tree.filter(alive), { timeout: 15_000, interval: 100 }).toEqual([]);
  expect(liveLockHolder(dataDir)).toBeUndefined();
}, 200_000);

test('a busy port is reported at once, in one line, before the database is opened', async () => {
  const holder = net.createServer();
  await new Promise<void>((r) => holder.listen(0, '127.0.0.1', () => r()));
  const port = (holder.address() as net.AddressInfo).port;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'partner-api-busy-'));
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: ROOT, env: serverEnv({ DATA_DIR: dataDir, PORT: String(port) }) });
  running.push(proc);
  let err = '';
  proc.stderr.on('data', (d) => (err += d));
  const code = await new Promise<number | null>((r) => proc.on('exit', r));
  holder.close();
  expect(code).toBe(1);
  expect(err.trim()).toBe(`failed to start: port ${port} on 127.0.0.1 is already in use: stop the other server or set PORT`);
  // Nothing was opened: no database files, no lock.
  expect(existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
}, 60_000);
