// Benchmark: how long /healthz takes while 4 OCR uploads run, against an idle server; then how many REST reads
// (GET /api/v1/partner/vendors, 10 connections, autocannon in this process) the server answers while 4 more run,
// against idle; then /healthz while two scanned multi-page invoices (the corpus's, as `npm run eval -- --corpus --seed 21
// --scan` scans them) are read at once. `npm run bench -- ocr` — prints figures and the during/idle ratios (target:
// /healthz p95 during OCR under 50 ms). READER_NICE=0 runs the reading workers at the event loop's priority, for comparison.

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { loadConfig } from '../src/platform/config.ts';
import { startApp } from '../src/main.ts';
import { makeReceiptImage } from '../test/fixtures/invoice-documents.ts';
import { scannedInvoices } from './scanned-corpus.ts';

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;

async function probe(base: string, until: () => boolean, minSamples: number): Promise<number[]> {
  const out: number[] = [];
  while (!until() || out.length < minSamples) {
    const t0 = performance.now();
    const res = await fetch(`${base}/healthz`);
    await res.arrayBuffer();
    out.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 20));
    if (out.length > 5000) break;
  }
  return out;
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'partner-api-bench-'));
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  DATA_DIR: dataDir,
  METADATA_SERVER_DETECTION: 'none',
  READER_NICE: process.env.READER_NICE,
});
const app = await startApp({ config });
try {
  const base = `http://127.0.0.1:${app.port}`;
  // Tier embed: no per-minute cap, which the read load below would reach.
  const { apiKey } = await app.services.partners.createPartner({ name: 'Bench', tier: 'embed' });
  const lines = Array.from({ length: 24 }, (_, i) => `Item number ${i + 1} of the order      ${(i + 1.25).toFixed(2)}`);
  const image = await makeReceiptImage(['NORTHWIND MARKET', 'Date: 2024-05-02', ...lines, 'TOTAL 330.00']);
  const upload = async () => {
    const fd = new FormData();
    fd.append('file', new Blob([image]), 'r.png');
    const t0 = performance.now();
    const res = await fetch(`${base}/api/v1/partner/receipts/upload`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: fd });
    if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
    return performance.now() - t0;
  };
  await upload(); // warm the reading workers

  let idleDone = false;
  setTimeout(() => (idleDone = true), 1000);
  const idle = await probe(base, () => idleDone, 20);

  let running = 4;
  const uploads = Array.from({ length: 4 }, () => upload().finally(() => running--));
  const during = await probe(base, () => running === 0, 20);
  const uploadMs = await Promise.all(uploads);

  const f = (n: number) => n.toFixed(1);
  console.log(`/healthz idle:            n=${idle.length}  p50 ${f(pct(idle, 50))} ms  p95 ${f(pct(idle, 95))} ms  max ${f(Math.max(...idle))} ms`);
  console.log(`/healthz during 4 OCR:    n=${during.length}  p50 ${f(pct(during, 50))} ms  p95 ${f(pct(during, 95))} ms  max ${f(Math.max(...during))} ms`);
  console.log(`OCR uploads (4 at once):  ${uploadMs.map((m) => `${(m / 1000).toFixed(1)} s`).join(', ')} on ${os.availableParallelism()} cores`);
  console.log(`ratio p95 during/idle:    ${(pct(during, 95) / pct(idle, 95)).toFixed(2)}x`);

  const reads = (seconds: number) =>
    autocannon({ url: `${base}/api/v1/partner/vendors`, connections: 10, duration: seconds, headers: { 'x-api-key': apiKey } });
  const readsIdle = await reads(4);
  const more = Array.from({ length: 4 }, () => upload());
  const readsDuring = await reads(4);
  const moreMs = await Promise.all(more);
  const line = (r: autocannon.Result) => `${Math.round(r.requests.average)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms`;
  console.log(`REST reads idle:          ${line(readsIdle)}`);
  console.log(`REST reads during 4 OCR:  ${line(readsDuring)}  (reading workers at nice ${config.readerNice})`);
  console.log(`OCR uploads (4 at once):  ${moreMs.map((m) => `${(m / 1000).toFixed(1)} s`).join(', ')}`);
  console.log(`ratio req/s during/idle:  ${(readsDuring.requests.average / readsIdle.requests.average).toFixed(2)}x`);

  const scans = await scannedInvoices(21, 28, (layout) => layout === 'multi-page');
  const uploadScan = async (bytes: Buffer) => {
    const fd = new FormData();
    fd.append('file', new Blob([bytes]), 'scan.pdf');
    const t0 = performance.now();
    const res = await fetch(`${base}/api/v1/partner/invoices/upload`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: fd });
    if (res.status !== 201) throw new Error(`scan upload failed: ${res.status} ${await res.text()}`);
    return performance.now() - t0;
  };
  let scanning = scans.length;
  const scanUploads = scans.map((s) => uploadScan(s.bytes).finally(() => scanning--));
  const duringScans = await probe(base, () => scanning === 0, 20);
  const scanMs = await Promise.all(scanUploads);
  const p = (q: number) => f(pct(duringScans, q));
  console.log(
    `/healthz during ${scans.length} scans: n=${duringScans.length}  p50 ${p(50)} ms  p95 ${p(95)} ms  p99 ${p(99)} ms  max ${f(Math.max(...duringScans))} ms`,
  );
  console.log(`scan uploads (${scans.map((s) => `${s.pages} pages`).join(', ')} at once): ${scanMs.map((m) => `${(m / 1000).toFixed(1)} s`).join(', ')}`);
  console.log(`load average (1 min): ${os.loadavg()[0]!.toFixed(1)}`);
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
