import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { liveLockHolder, ownerFile } from '../../src/app/admin/data-dir-lock.ts';
import { ROOT, runAdmin, serverEnv, startServerProcess } from '../helpers/process.ts';

// The real process, as `npm start` runs it: its own embedded database in DATA_DIR, signals, restarts,
// and the admin CLI beside it.
const DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'partner-api-e2e-'));
const ENV = serverEnv({ DATA_DIR });
const running: ChildProcess[] = [];

afterAll(() => running.forEach((p) => p.exitCode === null && p.kill('SIGKILL')));

const admin = (...args: string[]) => runAdmin(ENV, ...args);

const vendors = (base: string, key: string) => fetch(`${base}/api/v1/partner/vendors`, { headers: { 'x-api-key': key } });

test('npm start on an empty data directory: demo key, CLI beside it, graceful SIGTERM, data survives restart', async () => {
  // On a terminal, as `npm start` in a shell: the demo key is printed (never when the output is collected into a log:
  // test/e2e/log-secrets.test.ts).
  const first = await startServerProcess(ENV, running, { tty: true });
  const demoKey = /apiKey\s+(pk_[\w-]{32})/.exec(first.output())?.[1];
  expect(first.output()).toContain('First start: created a demo partner (tier embed)');
  expect(first.output()).toContain(`curl -H 'X-API-Key: ${demoKey}'`);
  expect((await fetch(`${first.base}/healthz`)).status).toBe(200);
  expect((await fetch(`${first.base}/readyz`)).status).toBe(200);
  const listed = await vendors(first.base, demoKey!);
  expect(listed.status).toBe(200);
  expect(await listed.json()).toEqual({ vendors: [] });

  // the CLI goes through the running server instead of opening its database
  const created = await admin('create-partner', '--name', 'Acme Foods', '--tier', 'storage', '--legacy-plan', 'starter');
  expect(created.stderr).toBe('');
  expect(created.code).toBe(0);
  const partner = JSON.parse(created.stdout.trim());
  expect(Object.keys(partner).sort()).toEqual(['apiKey', 'partnerId', 'tenantId']);
  expect((await vendors(first.base, partner.apiKey)).status).toBe(200);

  // the first start built the word-vector cache for search; reindex runs in the server and reports what it did
  expect(existsSync(path.join(DATA_DIR, 'embeddings', 'wink-sg-100d.v1.bin'))).toBe(true);
  const reindexed = await admin('reindex');
  expect(reindexed.code).toBe(0);
  expect(JSON.parse(reindexed.stdout.trim())).toMatchObject({ indexed: 0, removed: 0, embedder: 'local:wink-sg-100d+ngram-256+legal-forms' });
  const found = await fetch(`${first.base}/api/v1/partner/search?q=invoices`, { headers: { 'x-api-key': partner.apiKey } });
  expect(await found.json()).toEqual({ success: true, data: { results: [], query: 'invoices', totalResults: 0 } });

  // a second server on the same data directory refuses to start
  const second = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: ROOT, env: ENV });
  running.push(second);
  let secondOut = '';
  second.stderr.on('data', (d) => (secondOut += d));
  expect(await new Promise((r) => second.on('exit', r))).toBe(1);
  expect(secondOut).toMatch(/in use by a running server \(pid \d+/);

  // bad CLI input is a clear error, not a stack trace
  const bad = await admin('create-partner', '--name', 'X', '--tier', 'gold');
  expect(bad.code).toBe(1);
  expect(bad.stderr.trim()).toBe('tier must be one of extraction, storage, embed');

  first.signal('SIGTERM');
  expect(await first.exited).toBe(0);
  expect(liveLockHolder(DATA_DIR)).toBeUndefined();
  expect(existsSync(ownerFile(DATA_DIR))).toBe(false);

  // with no server, the CLI opens the database itself (and takes the lock meanwhile)
  const keyed = await admin('create-key', '--partner', partner.partnerId, '--scopes', 'read,invoices:read');
  expect(keyed.code).toBe(0);
  const { apiKey: scopedKey } = JSON.parse(keyed.stdout.trim());
  expect(liveLockHolder(DATA_DIR)).toBeUndefined();
  expect(existsSync(ownerFile(DATA_DIR))).toBe(false);

  const again = await startServerProcess(ENV, running);
  expect(again.output()).not.toContain('First start');
  for (const key of [demoKey!, partner.apiKey, scopedKey]) expect((await vendors(again.base, key)).status).toBe(200);

  const revoked = await admin('revoke-key', '--prefix', scopedKey.slice(0, 11));
  expect(revoked.code).toBe(0);
  expect(JSON.parse(revoked.stdout.trim())).toEqual({ revoked: 1 });
  expect((await vendors(again.base, scopedKey)).status).toBe(401);

  again.signal('SIGTERM');
  expect(await again.exited).toBe(0);
}, 120_000);
