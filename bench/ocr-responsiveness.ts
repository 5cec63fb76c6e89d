// Benchmark: how long /healthz takes while 4 OCR uploads run, against an idle server.
// `npm run bench -- ocr` — prints figures and the during/idle ratio (target: p95 during OCR under 50 ms).

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/platform/config.ts';
import { startApp } from '../src/main.ts';
import { makeReceiptImage } from '../test/fixtures/invoice-documents.ts';

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
const app = await startApp({ config: loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir, METADATA_SERVER_DETECTION: 'none' }) });
try {
  const base = `http://127.0.0.1:${app.port}`;
  const { apiKey } = await app.services.partners.createPartner({ name: 'Bench', tier: 'extraction' });
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
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
