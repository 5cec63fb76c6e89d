// Benchmark of live events: `npm run bench -- events`. This process is the server (startApp on a fresh embedded
// database); the subscribers and the webhook receiver run in a child process (bench/events-clients.ts), so the
// server's CPU and RSS are its own. Latencies are process.hrtime, a clock both processes share.
// 1. Connect: BENCH_SUBSCRIBERS (5,000) graphql-ws subscribers open at once, each with one `invoiceEvents`
//    subscription: group 0 is 1,000 sockets of one partner, the rest are spread over BENCH_PARTNERS − 1 more
//    partners (one key each). Reported: the time until every subscription is live on the server, and the server's
//    RSS growth per 1,000 sockets (after a GC).
// 2. Fan-out: 20 invoice events of group 0's partner, written one at a time 300 ms apart (as uploads do); latency
//    from the start of the committing write to each subscriber's receipt (p50/p99).
// 3. Rate: BENCH_RATE (500) events/s for BENCH_RATE_SECONDS (5), round-robin over every partner's tenant, the events
//    due every 10 ms written by one INSERT (5 rows when on time); latency p50/p99 as above. Every phase checks that
//    no subscriber got another partner's event.
// 4. Webhooks: BENCH_DELIVERIES (2,000) events to one endpoint on the child's loopback receiver; signed deliveries per
//    second from the write to the last delivery (OUTBOUND_ALLOW_LOOPBACK=1 allows the loopback target, as in development).
// BENCH_CLIENT_NODE_ARGS passes node flags to the clients' process (e.g. --cpu-prof). Measured figures (before/after
// each change, and what is not reached yet): docs/decisions.md, "Live events at scale".

import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { appendEvent, eventsAfter } from '../src/platform/events/outbox.queries.ts';
import { loadConfig } from '../src/platform/config.ts';
import { startApp } from '../src/main.ts';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 5000);
const PARTNERS = Math.max(1, Number(process.env.BENCH_PARTNERS ?? 50));
const RATE = Number(process.env.BENCH_RATE ?? 500);
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 5);
const EVENTS = 20;
const QUERY = 'subscription { invoiceEvents(types: ["invoice.created"]) { invoice { id } } }';
const now = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** RSS after the garbage collector had its chances (freed pages go back to the system a little later). */
async function rssMb(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.();
    await sleep(200);
  }
  return process.memoryUsage().rss / 1e6;
}

const child: ChildProcess = fork(path.join(import.meta.dirname, 'events-clients.ts'), {
  execArgv: ['--import', 'tsx', ...(process.env.BENCH_CLIENT_NODE_ARGS?.split(' ') ?? [])],
  stdio: 'inherit',
});
/** Sends a message to the clients' process and waits for its reply of the same type. */
function ask(m: Record<string, unknown>): Promise<any> {
  return new Promise((resolve) => {
    const on = (r: any) => r.type === m.type && (child.off('message', on), resolve(r));
    child.on('message', on);
    child.send(m);
  });
}
async function waitReceived(expected: number, ms: number): Promise<void> {
  const start = now();
  while ((await ask({ type: 'count' })).received < expected && now() - start < ms) await sleep(100);
}
function printLatency(what: string, r: any): void {
  const ms = (x: number | null) => (x ?? NaN).toFixed(1); // NaN (no samples) crosses IPC as null
  console.log(
    `${what}: ${r.samples} receipts (${r.missing} missing): p50 ${ms(r.p50)} ms  p99 ${ms(r.p99)} ms  max ${ms(r.max)} ms; events of another partner received: ${r.foreign}`,
  );
}

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
try {
  const doc = { fileType: 'pdf' as const, mimeType: 'application/pdf', sizeBytes: 1, sha256: 'e'.repeat(64), originalName: null, blobKey: null, pageCount: 1 };
  const partners: { apiKey: string; tenantId: string }[] = [];
  for (let p = 0; p < PARTNERS; p++) partners.push(await app.services.partners.createPartner({ name: `Bench ${p}`, tier: 'storage' }));
  // A real invoice.created payload per partner, reused with fresh ids by the rate phase.
  for (const p of partners) await app.services.invoices.start(p.tenantId, doc, null);
  const payloads = new Map((await eventsAfter(app.database.db, '0', 10_000)).map((r) => [r.tenantId, r.payload as Record<string, unknown>]));
  const burst = Math.min(1000, SUBSCRIBERS);
  const counts = partners.map((_, p) =>
    p === 0 ? burst : Math.floor((SUBSCRIBERS - burst) / (PARTNERS - 1)) + (p - 1 < (SUBSCRIBERS - burst) % (PARTNERS - 1) ? 1 : 0),
  );

  // 1. Connect.
  const rssBefore = await rssMb();
  const connectStart = now();
  child.send({
    type: 'connect',
    url: `ws://127.0.0.1:${app.port}/graphql`,
    groups: partners.map((p, g) => ({ apiKey: p.apiKey, count: counts[g], query: QUERY })),
  });
  // Waits until every subscription is live, for at most 120 s, and gives up after 15 s without a new one.
  for (let live = 0, since = now(); app.services.events.subscribers < SUBSCRIBERS && now() - connectStart < 120_000; await sleep(20)) {
    if (app.services.events.subscribers > live) [live, since] = [app.services.events.subscribers, now()];
    else if (now() - since > 15_000) break;
  }
  const connectSeconds = (now() - connectStart) / 1000;
  if (app.services.events.subscribers < SUBSCRIBERS) {
    throw new Error(
      `only ${app.services.events.subscribers} of ${SUBSCRIBERS} subscriptions went live in ${connectSeconds.toFixed(1)} s (the clients' errors are above)`,
    );
  }
  await sleep(500);
  const rssAfter = await rssMb();
  console.log(`subscribers live: ${app.services.events.subscribers}/${SUBSCRIBERS} (${PARTNERS} partners) in ${connectSeconds.toFixed(1)} s`);
  console.log(
    `server RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MB = ${(((rssAfter - rssBefore) / SUBSCRIBERS) * 1000).toFixed(1)} MB per 1,000 sockets`,
  );

  // 2. Fan-out of single writes to group 0.
  const sent: Record<string, [number, number]> = {};
  for (let i = 0; i < EVENTS; i++) {
    const t0 = now();
    const invoice = await app.services.invoices.start(partners[0]!.tenantId, doc, null); // commits invoice.created
    sent[invoice.id] = [t0, 0];
    await sleep(300);
  }
  await waitReceived(burst * EVENTS, 30_000);
  printLatency(`fan-out, ${burst} subscribers × ${EVENTS} events`, await ask({ type: 'report', sent, expected: burst * EVENTS }));

  // 3. Events at RATE per second, one multi-row INSERT (its own transaction) every 10 ms, catching up when a tick comes
  // late. A transaction of one INSERT per event waited for the busy event loop at each of its statements: the writer,
  // not the fan-out, then set the pace (below 500 events/s, in batches of ~100).
  const rateSent: Record<string, [number, number]> = {};
  let written = 0;
  let expected = 0;
  const total = RATE * RATE_SECONDS;
  const rateStart = now();
  const cpu0 = { server: process.cpuUsage(), loop: performance.eventLoopUtilization(), clients: await ask({ type: 'cpu' }) };
  while (written < total) {
    const due = Math.min(total, Math.ceil(((now() - rateStart) / 1000) * RATE));
    if (due > written) {
      const t0 = now();
      const rows = [];
      for (; written < due; written++) {
        const g = written % PARTNERS;
        const id = randomUUID();
        rateSent[id] = [t0, g];
        expected += counts[g]!;
        const payload = { ...payloads.get(partners[g]!.tenantId), id };
        rows.push({ tenantId: partners[g]!.tenantId, type: 'invoice.created', subjectId: id, payload: JSON.stringify(payload) });
      }
      await app.database.db.insertInto('outboxEvents').values(rows).execute();
      app.services.events.written();
    }
    await sleep(10);
  }
  const rateAchieved = total / ((now() - rateStart) / 1000);
  await waitReceived(expected, 60_000); // the fan-out report above cleared its receipts
  const cpuMs = (u: { user: number; system: number }, from: { user: number; system: number }) => (u.user - from.user + u.system - from.system) / 1000;
  const wall = now() - rateStart;
  const serverCpu = process.cpuUsage();
  const busy = performance.eventLoopUtilization(cpu0.loop).utilization;
  const clientsCpu = await ask({ type: 'cpu' });
  printLatency(
    `at ${rateAchieved.toFixed(0)} events/s for ${RATE_SECONDS} s over ${PARTNERS} partners (${expected} messages)`,
    await ask({ type: 'report', sent: rateSent, expected }),
  );
  console.log(
    `  CPU from the first write to the last receipt (${(wall / 1000).toFixed(1)} s, 2 cores): server ${((100 * cpuMs(serverCpu, cpu0.server)) / wall).toFixed(0)}% of a core (its event loop busy ${(100 * busy).toFixed(0)}%), clients ${((100 * cpuMs(clientsCpu, cpu0.clients)) / wall).toFixed(0)}%`,
  );
  // The subscribers leave first (as at the start of the original bench): the 500 events would reach group 0 too.
  child.send({ type: 'disconnect' });
  while (app.services.events.subscribers > 0) await sleep(50);
  const { port } = await ask({ type: 'receiver' });

  // 4. Webhooks: all events in one transaction, so the figure is delivery throughput, not the speed of writing.
  const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 2000);
  const principal = await app.services.authenticate(partners[0]!.apiKey);
  await app.services.webhooks.register(principal, { url: `http://127.0.0.1:${port}/hook`, events: ['invoice.created'] });
  const invoice = await app.services.invoices.start(partners[0]!.tenantId, doc, null);
  const t0 = now();
  await app.database.db.transaction().execute(async (trx) => {
    for (let i = 0; i < DELIVERIES - 1; i++)
      await appendEvent(trx, partners[0]!.tenantId, { type: 'invoice.created', subjectId: invoice.id, payload: { id: invoice.id, n: i } });
  });
  app.services.events.written();
  const writtenAt = now();
  let r = await ask({ type: 'deliveries' });
  while (r.delivered < DELIVERIES && now() - t0 < 120_000) {
    await sleep(50);
    r = await ask({ type: 'deliveries' });
  }
  const seconds = (r.lastAt - writtenAt) / 1000;
  console.log(
    `webhooks: ${r.delivered}/${DELIVERIES} signed deliveries in ${seconds.toFixed(2)} s after the events were written = ${(r.delivered / seconds).toFixed(0)}/s (writing them took ${((writtenAt - t0) / 1000).toFixed(2)} s; first delivery after ${((r.firstAt - writtenAt) / 1000).toFixed(2)} s, then ${((r.delivered - 1) / ((r.lastAt - r.firstAt) / 1000)).toFixed(0)}/s)`,
  );
} finally {
  child.send({ type: 'close' });
  await new Promise((r) => child.once('exit', r));
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
