// Benchmark of live events: `npm run bench -- events`.
// 1. Fan-out: 1,000 graphql-ws subscribers of one partner on one server; 20 invoice events are written (one at a
//    time, as uploads do) and the time from the committing write to each subscriber's receipt is measured (p50/p99).
// 2. Webhooks: 500 events to one endpoint on a loopback HTTP receiver; signed deliveries per second from the first
//    write to the last delivery (OUTBOUND_ALLOW_LOOPBACK=1 allows the loopback target, as in development).

import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { appendEvent } from '../src/platform/events/outbox.queries.ts';
import { loadConfig } from '../src/platform/config.ts';
import { startApp } from '../src/main.ts';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);
const EVENTS = 20;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'partner-api-bench-events-'));
const app = await startApp({
  config: loadConfig({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    METADATA_SERVER_DETECTION: 'none',
    EVENTS_POLL_MS: process.env.EVENTS_POLL_MS ?? '200',
    OUTBOUND_ALLOW_LOOPBACK: '1',
  }),
});
const clients: Client[] = [];
try {
  const { apiKey, tenantId } = await app.services.partners.createPartner({ name: 'Bench', tier: 'storage' });
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let received = 0;
  const url = `ws://127.0.0.1:${app.port}/graphql`;
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const c = createClient({ url, webSocketImpl: WebSocket, connectionParams: { apiKey }, retryAttempts: 0 });
    clients.push(c);
    c.subscribe(
      { query: 'subscription { invoiceEvents(types: ["invoice.created"]) { invoice { id } } }' },
      {
        next: (r: any) => {
          const t0 = sentAt.get(r.data.invoiceEvents.invoice.id);
          if (t0 !== undefined) latencies.push(performance.now() - t0);
          received++;
        },
        error: () => {},
        complete: () => {},
      },
    );
  }
  const connectStart = performance.now();
  while (app.services.events.subscribers < SUBSCRIBERS && performance.now() - connectStart < 60_000) await new Promise((r) => setTimeout(r, 50));
  console.log(`subscribers connected: ${app.services.events.subscribers} in ${((performance.now() - connectStart) / 1000).toFixed(1)} s`);

  const doc = { fileType: 'pdf' as const, mimeType: 'application/pdf', sizeBytes: 1, sha256: 'e'.repeat(64), originalName: null, blobKey: null, pageCount: 1 };
  for (let i = 0; i < EVENTS; i++) {
    const t0 = performance.now();
    const invoice = await app.services.invoices.start(tenantId, doc, null); // commits invoice.created
    sentAt.set(invoice.id, t0);
    await new Promise((r) => setTimeout(r, 300));
  }
  const expected = SUBSCRIBERS * EVENTS;
  const waitStart = performance.now();
  while (received < expected && performance.now() - waitStart < 30_000) await new Promise((r) => setTimeout(r, 50));
  console.log(`events delivered to subscribers: ${received}/${expected}`);
  console.log(
    `fan-out latency (write → subscriber), ${latencies.length} samples: p50 ${pct(latencies, 50).toFixed(1)} ms  p99 ${pct(latencies, 99).toFixed(1)} ms  max ${Math.max(...latencies).toFixed(1)} ms`,
  );
  console.log(`server RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB (server and clients share this process)`);
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
  while (app.services.events.subscribers > 0) await new Promise((r) => setTimeout(r, 50));

  const DELIVERIES = 500;
  let delivered = 0;
  let lastAt = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.headers['webhook-signature']) delivered++;
      lastAt = performance.now();
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  try {
    const principal = await app.services.authenticate(apiKey);
    await app.services.webhooks.register(principal, { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['invoice.created'] });
    // All events in one transaction, so the figure is delivery throughput, not the speed of writing events.
    const invoice = await app.services.invoices.start(tenantId, doc, null);
    const t0 = performance.now();
    await app.database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < DELIVERIES - 1; i++)
        await appendEvent(trx, tenantId, { type: 'invoice.created', subjectId: invoice.id, payload: { id: invoice.id, n: i } });
    });
    app.services.events.written();
    const written = performance.now();
    while (delivered < DELIVERIES && performance.now() - t0 < 120_000) await new Promise((r) => setTimeout(r, 20));
    const seconds = (lastAt - written) / 1000;
    console.log(
      `webhooks: ${delivered}/${DELIVERIES} signed deliveries in ${seconds.toFixed(1)} s after the events were written = ${(delivered / seconds).toFixed(0)}/s (writing them took ${((written - t0) / 1000).toFixed(1)} s)`,
    );
  } finally {
    receiver.close();
  }
} finally {
  await Promise.all(clients.map((c) => c.dispose()));
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
