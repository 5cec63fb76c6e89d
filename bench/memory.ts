// Benchmark: the server's resident memory (RSS) at idle, under load and after it, as `npm start` runs it.
// `npm run bench -- memory [--uploads 8] [--dataset ../shared/datasets/dev]` — targets (issue 17): idle ≤ 300 MB,
// ≤ 1 GB with two reading workers busy, and the workers' memory given back once they have been idle a while.
//
// The compiled server (dist/, built first when stale) runs in its own process on a fresh embedded database, with the
// node flags and environment of `npm start` (./server-flags.ts, MALLOC_ARENA_MAX=1) and READER_IDLE_RELEASE_MS=10000
// so the release shows within the run. Load: photos of receipts from the dataset (generated receipt images without
// it) uploaded all at once; RSS is read from /proc every 100 ms (Linux), the worker threads' memory included.

import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeReceiptImage } from '../test/fixtures/invoice-documents.ts';
import { SERVER_NODE_FLAGS } from './server-flags.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const UPLOADS = Number(arg('uploads', '8'));
const DATASET = path.resolve(root, arg('dataset', '../shared/datasets/dev'));
const IDLE_RELEASE_MS = 10_000;
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rssKb(pid: number): number {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return m ? Number(m[1]) : 0;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function receipts(): Promise<Buffer[]> {
  let files: string[] = [];
  try {
    files = readdirSync(DATASET).filter((f) => /^rcpt-.*\.jpe?g$/.test(f));
  } catch {
    // no dataset beside the repository: generated receipts below
  }
  if (files.length) return files.slice(0, UPLOADS).map((f) => readFileSync(path.join(DATASET, f)));
  const lines = Array.from({ length: 30 }, (_, i) => `Item number ${i + 1} of the order      ${(i + 1.25).toFixed(2)}`);
  return Promise.all(Array.from({ length: UPLOADS }, (_, k) => makeReceiptImage([`NORTHWIND MARKET ${k}`, 'Date: 2024-05-02', ...lines, 'TOTAL 480.00'])));
}

execFileSync(process.execPath, [path.join(root, 'tools/build.mjs'), '--if-stale'], { stdio: 'inherit' });
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'partner-api-bench-memory-'));
const port = await freePort();
const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', MALLOC_ARENA_MAX: '1' };
const base = `http://127.0.0.1:${port}`;
/** The server as `npm start` runs it; stderr (banner, warnings) kept for a failure. */
async function start() {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'dist/main.js'], {
    cwd: root,
    env: { ...env, READER_IDLE_RELEASE_MS: String(IDLE_RELEASE_MS) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  for (let i = 0; ; i++) {
    if (i > 600 || child.exitCode !== null) throw new Error(`the server did not start within 60 s:\n${stderr}`);
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
    await sleep(100);
  }
}
async function stop(child: ReturnType<typeof spawn>) {
  child.kill('SIGTERM');
  if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
}

// The first start creates the database and builds the word-vector cache; then the server is started again on them.
// Both idle readings come 5 s after the start (the server gives freed memory back to the system 2 s after it is up).
let server = await start();
await sleep(5000);
const firstIdle = rssKb(server.pid!);
await stop(server);
server = await start();
try {
  const { apiKey } = JSON.parse(
    execFileSync(process.execPath, ['dist/cli.js', 'create-partner', '--name', 'Bench', '--tier', 'storage'], { cwd: root, env }).toString(),
  ) as {
    apiKey: string;
  };
  const images = await receipts();
  await sleep(5000);
  const idle = rssKb(server.pid!);

  let peak = 0;
  let busy = true;
  const sampler = (async () => {
    while (busy) {
      peak = Math.max(peak, rssKb(server.pid!));
      await sleep(100);
    }
  })();
  const t0 = performance.now();
  const statuses = await Promise.all(
    images.map(async (image, i) => {
      const fd = new FormData();
      fd.append('file', new Blob([image]), `receipt-${i}.jpg`);
      fd.append('force', 'true');
      const res = await fetch(`${base}/api/v1/partner/receipts/upload`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: fd });
      await res.arrayBuffer();
      return res.status;
    }),
  );
  busy = false;
  await sampler;
  const loadS = (performance.now() - t0) / 1000;
  const after = rssKb(server.pid!);
  await sleep(IDLE_RELEASE_MS + 5000);
  const released = rssKb(server.pid!);

  console.log(
    `uploads: ${images.length} receipts at once (${statuses.filter((s) => s === 201).length} × 201) in ${loadS.toFixed(1)} s on ${os.availableParallelism()} cores`,
  );
  console.log(`RSS idle, first start (new database): ${mb(firstIdle)}   target ≤ 300 MB`);
  console.log(`RSS idle, started again:            ${mb(idle)}   target ≤ 300 MB`);
  console.log(`RSS peak (two reading workers busy): ${mb(peak)}   target ≤ 1024 MB`);
  console.log(`RSS right after the load:           ${mb(after)}`);
  console.log(`RSS after the workers' idle release (${IDLE_RELEASE_MS / 1000} s): ${mb(released)}`);
} finally {
  await stop(server);
  rmSync(dataDir, { recursive: true, force: true });
}
