// Benchmark of the labor report: `npm run bench -- labor`.
// The demo restaurant group (`npm run seed -- --demo`: 3 stores, 20 employees, a month of shifts, punches and
// sales) is seeded into a server on a temporary DATA_DIR (embedded PGlite on disk, as `npm start` runs it), then
// GET /api/v1/partner/tenants/{tenantId}/scheduling/labor-report?startDate=…&endDate=… is timed over real HTTP
// (one client, keep-alive, one request at a time): 20 warm-up and 200 measured requests for the whole tenant and
// for one store. Target: p50 < 100 ms. Also counts the SQL statements one report runs (Kysely's query log).

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { connect } from '../src/platform/db/connect.ts';
import { seedDemo } from '../src/app/admin/demo-seed.ts';
import { loadConfig } from '../src/platform/config.ts';
import { startApp } from '../src/main.ts';

const WARMUP = 20;
const MEASURED = 200;
const TARGET_P50_MS = 100;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'partner-api-bench-labor-'));
// Reuse a word-vector cache that is already built (the tests' or ./data's) rather than building one (~10 s).
const builtCache = [
  process.env.EMBEDDINGS_CACHE_DIR,
  fileURLToPath(new URL('../node_modules/.cache/partner-api/embeddings', import.meta.url)),
  fileURLToPath(new URL('../data/embeddings', import.meta.url)),
].find((dir) => dir && existsSync(path.join(dir, 'wink-sg-100d.v1.bin')));

// Every statement Kysely runs is seen here; `recording` collects them while one report is requested.
let recording: string[] | undefined;
const database = await connect({ dataDir, onQuery: (sql) => recording?.push(sql) });
const app = await startApp({
  config: loadConfig({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    METADATA_SERVER_DETECTION: 'none',
    ...(builtCache ? { EMBEDDINGS_CACHE_DIR: builtCache } : {}),
  }),
  database,
});
let failed = false;
try {
  const seedStart = performance.now();
  const demo = await seedDemo(app.services, database.db);
  const c = demo.counts;
  console.log(
    `seeded the demo in ${((performance.now() - seedStart) / 1000).toFixed(1)} s: ${c.stores} stores, ${c.employees} employees, ` +
      `${c.schedules.published + c.schedules.archived + c.schedules.draft} schedules, ${c.shifts} shifts, ${c.punches} punches, ` +
      `${c.salesDays} sales days, ${c.inventoryItems} items, ${c.inventoryCounts} counts`,
  );
  console.log(`report range ${demo.startDate} … ${demo.endDate}; ${MEASURED} measured requests after ${WARMUP} warm-up, one at a time`);

  const base = `http://127.0.0.1:${app.port}/api/v1/partner/tenants/${demo.tenantId}/scheduling/labor-report?startDate=${demo.startDate}&endDate=${demo.endDate}`;
  const get = async (url: string) => {
    const res = await fetch(url, { headers: { 'x-api-key': demo.apiKey } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`GET ${url} → ${res.status}: ${body.slice(0, 300)}`);
    return body;
  };

  const variants = [
    { name: 'whole tenant (3 stores)', url: base },
    { name: `one store (${demo.stores[0]!.externalStoreId})`, url: `${base}&storeId=${demo.stores[0]!.id}` },
  ];
  for (const v of variants) {
    for (let i = 0; i < WARMUP; i++) await get(v.url);
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < MEASURED; i++) {
      const t0 = performance.now();
      bytes = (await get(v.url)).length;
      times.push(performance.now() - t0);
    }
    // The query log of one more request. The event dispatcher polls the outbox on the same connection (every
    // EVENTS_POLL_MS, in a transaction); a request its poll overlapped is asked again, so the count is the report's.
    let statements: string[] = [];
    let report: { data: { employees: unknown[]; weekly: unknown[] } } | undefined;
    let overlapped = 0;
    for (let attempt = 0; attempt < 10; attempt++) {
      recording = [];
      report = JSON.parse(await get(v.url));
      statements = recording;
      recording = undefined;
      if (!statements.some((s) => /outbox|webhook/i.test(s))) break;
      overlapped++;
    }
    const p50 = pct(times, 50);
    const pass = p50 < TARGET_P50_MS;
    if (!pass) failed = true;
    console.log(`\n${v.name}: ${report!.data.employees.length} employees, ${report!.data.weekly.length} weeks, ${(bytes / 1024).toFixed(1)} KiB`);
    console.log(
      `  p50 ${p50.toFixed(1)} ms  p95 ${pct(times, 95).toFixed(1)} ms  max ${Math.max(...times).toFixed(1)} ms  (target p50 < ${TARGET_P50_MS} ms: ${pass ? 'PASS' : 'FAIL'})`,
    );
    const note = overlapped ? ` (counted on a request the dispatcher's poll did not overlap; ${overlapped} did)` : '';
    console.log(`  SQL statements per report: ${statements.length}${note}`);
    for (const s of statements) console.log(`    ${s.replace(/\s+/g, ' ').trim().slice(0, 110)}`);
  }
} finally {
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
if (failed) process.exitCode = 1;
