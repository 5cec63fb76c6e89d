import { type ChildProcess, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, inject, test } from 'vitest';
import { liveLockHolder, ownerFile } from '../../src/app/admin/data-dir-lock.ts';
import { createPartnerWithCli, type ServerProcess, serverEnv, startServerProcess } from '../helpers/process.ts';

// Two containers on one volume are two servers that are both PID 1. Here each server runs in its own pid namespace
// (`unshare --pid --fork`, which needs root: CI runs as root) on one DATA_DIR, so no pid can tell them apart; only
// the kernel's lock on the data directory can. --kill-child takes a server down with its `unshare`.
const UNSHARE = ['unshare', '--pid', '--fork', '--kill-child'];
const DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'partner-api-pidns-'));
const ENV = serverEnv({ DATA_DIR, EMBEDDINGS_CACHE_DIR: inject('wordVectorCacheDir') });
const running: ChildProcess[] = [];

afterAll(() => running.forEach((p) => p.exitCode === null && p.kill('SIGKILL')));

/** Not a skip: without pid namespaces the test cannot say anything, so it fails saying why. */
function requirePidNamespaces(): void {
  const probe = spawnSync(UNSHARE[0]!, [...UNSHARE.slice(1), process.execPath, '-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  if (probe.stdout !== '1') {
    throw new Error(`this test needs \`unshare --pid --fork\` (util-linux, as root); it gave: ${probe.error?.message ?? probe.stderr.trim()}`);
  }
}

const startNamespaced = () => startServerProcess(ENV, running, { wrapper: UNSHARE });

/** The server's own process (the child of `unshare`): its pid here and its pid inside its namespace. */
function serverPids(server: ServerProcess): { here: number; inside: number } {
  const unshare = server.proc.pid!;
  const here = Number(readFileSync(`/proc/${unshare}/task/${unshare}/children`, 'utf8').trim());
  const nspids = /^NSpid:\s+(.+)$/m
    .exec(readFileSync(`/proc/${here}/status`, 'utf8'))![1]!
    .trim()
    .split(/\s+/);
  return { here, inside: Number(nspids.at(-1)) };
}

async function stop(server: ServerProcess, signal: 'SIGTERM' | 'SIGKILL'): Promise<number | null> {
  process.kill(serverPids(server).here, signal);
  return server.exited;
}

async function tenantNames(base: string, apiKey: string): Promise<string[]> {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ query: '{ tenants { nodes { name } } }' }),
  });
  const body = (await res.json()) as { data?: { tenants: { nodes: Array<{ name: string }> } }; errors?: unknown };
  if (!body.data) throw new Error(`tenants query failed: ${JSON.stringify(body)}`);
  return body.data.tenants.nodes.map((t) => t.name).sort();
}

test('two PID-1 servers on one data directory: the second is refused, nothing is lost; SIGKILL frees the lock', async () => {
  requirePidNamespaces();
  const first = await startNamespaced();
  expect(serverPids(first).inside).toBe(1);
  const { apiKey } = await createPartnerWithCli(ENV); // through the first server's admin endpoint
  const created = await fetch(`${first.base}/api/v1/partner/tenants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ name: 'Harbor Bistro Group', email: 'owner@harborbistro.example' }),
  });
  expect(created.status).toBe(201);

  // The second PID 1 is refused, naming the first: its pid in its namespace, the host, since when.
  const second = startNamespaced();
  await expect(second).rejects.toThrow(/^server exited with 1: /);
  await expect(second).rejects.toThrow(
    new RegExp(`failed to start: data directory ${DATA_DIR} is in use by a running server \\(pid 1, host ${os.hostname()}, since \\d{4}-\\d\\d-\\d\\dT`),
  );
  const tenants = await tenantNames(first.base, apiKey);
  expect(tenants).toContain('Harbor Bistro Group');

  // Stopped and started again (both PID 1 once more): the tenant created through the first is there.
  expect(await stop(first, 'SIGTERM')).toBe(0);
  const restarted = await startNamespaced();
  expect(serverPids(restarted).inside).toBe(1);
  expect(restarted.output()).not.toContain('First start');
  expect(await tenantNames(restarted.base, apiKey)).toEqual(tenants);

  // A server killed outright takes its lock with it: the next one starts at once and finds the data.
  await stop(restarted, 'SIGKILL');
  expect(existsSync(ownerFile(DATA_DIR))).toBe(true); // its record stays behind, and is not believed
  expect(liveLockHolder(DATA_DIR)).toBeUndefined();
  const takeover = await startNamespaced();
  expect(await tenantNames(takeover.base, apiKey)).toEqual(tenants);
  expect(await stop(takeover, 'SIGTERM')).toBe(0);
}, 240_000);
