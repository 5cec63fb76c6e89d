import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Client, createClient } from 'graphql-ws';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import WebSocket from 'ws';
import { connect, type Database } from '../../src/platform/db/connect.ts';
import { createPartnersService } from '../../src/modules/partners/partners.service.ts';
import { makeInvoicePdf, paperGoodsInvoice, produceInvoice } from '../fixtures/invoice-documents.ts';
import { serverDatabase, type ServerDatabase } from '../helpers/db.ts';
import { type ServerProcess, serverEnv, startServerProcess } from '../helpers/process.ts';

// Two real server processes on one real PostgreSQL database (TEST_DATABASE_URL: `npm run test:postgres`, which
// .ci/run runs), both started at once on an empty database as a first deploy of two replicas would. Whatever one
// instance writes, the other sees: subscriptions, webhooks (each event delivered once, by either), rate limits
// (RATE_LIMIT_STORE=postgres), adapter correlation ids, key revocations; and both outlive the database dropping
// their connections. Not on PGlite over a socket: its one backend serves every connection, so the two processes'
// named prepared statements (the rate limiter's) and sessions would collide, which real instances never see.
let server: ServerDatabase;
let database: Database;
const running: ChildProcess[] = [];
const clients: Client[] = [];
let a: ServerProcess;
let b: ServerProcess;
let apiKey: string;
let partnerId: string;
let receiver: http.Server;
let receiverUrl: string;
/** What the webhook receiver got: webhook-id and event type of every request, duplicates included. */
const received: Array<{ id: string; type: string }> = [];
let source: http.Server;
let sourceUrl: string;
let sourceHits = 0;
let pdf: Buffer;

const listen = async (s: http.Server) => {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  if (!inject('postgres')) throw new Error('the two-instance test runs on PostgreSQL: TEST_DATABASE_URL=… npm run test:postgres');
  // An empty database: both instances start at once and migrate it, as the first deploy of two replicas does.
  server = await serverDatabase({ migrated: false });
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ id: String(req.headers['webhook-id']), type: JSON.parse(body).type as string });
      res.end('ok');
    });
  });
  receiverUrl = await listen(receiver);
  pdf = await makeInvoicePdf(produceInvoice);
  // The adapter's source: slow enough that two instances' requests for one correlation id overlap.
  source = http.createServer((_req, res) => {
    sourceHits++;
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdf.length }).end(pdf), 300);
  });
  sourceUrl = await listen(source);
  const env = (name: string) =>
    serverEnv({
      DATABASE_URL: server.url,
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), `partner-api-${name}-`)),
      EMBEDDINGS_CACHE_DIR: inject('wordVectorCacheDir'),
      EVENTS_POLL_MS: '100',
      RATE_LIMIT_STORE: 'postgres',
      OUTBOUND_ALLOW_LOOPBACK: '1', // the webhook receiver and the adapter's source are on loopback
    });
  [a, b] = await Promise.all([startServerProcess(env('a'), running), startServerProcess(env('b'), running)]);
  database = await connect({ databaseUrl: server.url, poolSize: 2 });
  ({ apiKey, partnerId } = await createPartnersService(database.db).createPartner({ name: 'Two Instances', tier: 'storage' }));
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  for (const p of running) if (p.exitCode === null) p.kill('SIGTERM');
  await Promise.all(running.map((p) => new Promise((r) => (p.exitCode === null ? p.on('exit', r) : r(null)))));
  receiver?.close();
  source?.close();
  await database?.close();
  await server?.close();
});

function subscribe(on: ServerProcess): { got: Array<{ type: string; vendor: string | null }>; ready: Promise<unknown> } {
  const c = createClient({ url: `${on.base.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { apiKey }, retryAttempts: 0 });
  clients.push(c);
  const got: Array<{ type: string; vendor: string | null }> = [];
  c.subscribe(
    { query: 'subscription { invoiceEvents(types: ["invoice.processed"]) { type invoice { vendorName } } }' },
    { next: (r: any) => got.push({ type: r.data.invoiceEvents.type, vendor: r.data.invoiceEvents.invoice.vendorName }), error: () => {}, complete: () => {} },
  );
  // graphql-ws has no "subscribed" ack: a round trip on the same socket after the subscribe message orders them.
  return { got, ready: c.iterate({ query: '{ viewer { name } }' }).next() };
}

async function upload(on: ServerProcess, file: Buffer): Promise<number> {
  const fd = new FormData();
  fd.append('file', new Blob([file]), 'i.pdf');
  const res = await fetch(`${on.base}/api/v1/partner/invoices/upload`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: fd });
  return res.status;
}

async function waitFor(what: string, cond: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

test('uploads on A and B reach subscribers on both, and each event reaches the webhook exactly once', async () => {
  const reg = await fetch(`${a.base}/api/v1/partner/webhooks`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${receiverUrl}/hook`, events: ['invoice.created', 'invoice.processed', 'vendor.created'] }),
  });
  expect(reg.status).toBe(201);
  const webhookId = ((await reg.json()) as { id: string }).id;
  const { got: onA, ready: readyA } = subscribe(a);
  const { got: onB, ready: readyB } = subscribe(b);
  await Promise.all([readyA, readyB]); // both subscriptions registered
  expect(await upload(a, await makeInvoicePdf(produceInvoice))).toBe(201);
  expect(await upload(b, await makeInvoicePdf(paperGoodsInvoice))).toBe(201);
  await waitFor('both subscribers to see both invoices', () => onA.length >= 2 && onB.length >= 2, 10_000);
  const expected = [
    { type: 'invoice.processed', vendor: 'Green Valley Produce Co.' },
    { type: 'invoice.processed', vendor: 'Metro Packaging Supply Inc.' },
  ];
  expect(onA).toEqual(expected);
  expect(onB).toEqual(expected);

  // Two invoices of two new vendors: created, processed and vendor.created each, so six events. Both instances
  // tail the outbox and both run a delivery loop; every delivery is recorded with one attempt and was sent once.
  const deliveries = () =>
    database.db
      .selectFrom('webhookDeliveries')
      .select(['eventId', 'eventType', 'status', 'attempts'])
      .where('webhookId', '=', webhookId)
      .orderBy('eventType')
      .execute();
  await waitFor('six delivered webhooks', async () => (await deliveries()).filter((d) => d.status === 'delivered').length === 6, 15_000);
  const rows = await deliveries();
  expect(rows.map((d) => [d.eventType, d.status, d.attempts])).toEqual([
    ['invoice.created', 'delivered', 1],
    ['invoice.created', 'delivered', 1],
    ['invoice.processed', 'delivered', 1],
    ['invoice.processed', 'delivered', 1],
    ['vendor.created', 'delivered', 1],
    ['vendor.created', 'delivered', 1],
  ]);
  const attempts = await database.db
    .selectFrom('webhookAttempts')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('deliveryId', 'in', database.db.selectFrom('webhookDeliveries').select('id').where('webhookId', '=', webhookId))
    .executeTakeFirstOrThrow();
  expect(Number(attempts.n)).toBe(6);
  expect(received).toHaveLength(6);
  expect(new Set(received.map((r) => r.id))).toEqual(new Set(rows.map((d) => d.eventId)));
}, 60_000);

test('rate limits are shared (RATE_LIMIT_STORE=postgres): a starter key gets 10 a minute across both instances', async () => {
  const starterPartner = await createPartnersService(database.db).createPartner({ name: 'Starter', tier: 'extraction', legacyPlan: 'starter' });
  const starter = starterPartner.apiKey;
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) {
    const on = i % 2 === 0 ? a : b;
    const res = await fetch(`${on.base}/api/partner/usage`, { headers: { authorization: `Bearer ${starter}` } });
    statuses.push(res.status);
  }
  expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
  // refused requests are not counted; either instance reports the month's count from the database
  const usage = await fetch(`${b.base}/api/partner/usage`, { headers: { authorization: `Bearer ${starter}` } });
  expect(usage.status).toBe(429);
  const month = await sql<{ points: number }>`select points from rate_limits where key like ${`month:${starterPartner.partnerId}:%`}`.execute(database.db);
  expect(month.rows).toEqual([{ points: 10 }]);
});

test('one adapter correlation_id sent to both instances at once: fetched, extracted and charged once', async () => {
  const body = JSON.stringify({ source_url: `${sourceUrl}/bucket/inv.pdf`, correlation_id: 'both-instances-1' });
  const send = (on: ServerProcess) =>
    fetch(`${on.base}/api/v1/partner/extract`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body });
  const answers = await Promise.all([send(a), send(b), send(a), send(b)]);
  expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
  const bodies = (await Promise.all(answers.map((r) => r.json()))) as Array<{ cache_hit: boolean; data: unknown }>;
  expect(bodies.filter((x) => !x.cache_hit)).toHaveLength(1);
  for (const x of bodies) expect(x.data).toEqual(bodies[0]!.data);
  expect(sourceHits).toBe(1);
  const charged = await database.db
    .selectFrom('usageRecords')
    .select(['channel', 'kind'])
    .where('partnerId', '=', partnerId)
    .where('channel', '=', 'adapter')
    .execute();
  expect(charged).toEqual([{ channel: 'adapter', kind: 'invoice' }]);
});

test('the database closing every connection (a restart, a failover): both instances live on and serve again', async () => {
  const vendors = (on: ServerProcess) => fetch(`${on.base}/api/v1/partner/vendors`, { headers: { 'x-api-key': apiKey } }).then((r) => r.status);
  expect([await vendors(a), await vendors(b)]).toEqual([200, 200]);
  await server.dropConnections();
  // Their idle pooled connections are gone (an unheard pool 'error' once ended the process); new ones are opened.
  const answered = async (on: ServerProcess) => (await vendors(on).catch(() => 0)) === 200;
  await waitFor('both instances to answer from the database again', async () => (await answered(a)) && (await answered(b)), 10_000).catch((err: Error) => {
    // What the servers said is what explains it (a crash prints its stack there).
    throw new Error(`${err.message}; exit codes ${a.proc.exitCode}/${b.proc.exitCode}\nA:\n${a.output().slice(-4000)}\nB:\n${b.output().slice(-4000)}`);
  });
  expect([a.proc.exitCode, b.proc.exitCode]).toEqual([null, null]);
  expect(await upload(b, await makeInvoicePdf(produceInvoice))).toBe(201);
}, 60_000);

test('a key revoked elsewhere on the shared database closes its sockets on both instances within 5 s (4403)', async () => {
  const { apiKey: doomed } = await createPartnersService(database.db).createApiKey({ partnerId });
  const closed = [a, b].map((on) => {
    const c = createClient({
      url: `${on.base.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { apiKey: doomed },
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => {},
    });
    clients.push(c);
    const ticks: unknown[] = [];
    c.subscribe({ query: 'subscription { serverTime(everyMs: 250) }' }, { next: (t) => ticks.push(t), error: () => {}, complete: () => {} });
    return {
      ticks,
      closed: new Promise<{ code: number; reason: string; at: number }>((resolve) =>
        c.on('closed', (e) => resolve({ code: (e as WebSocket.CloseEvent).code, reason: String((e as WebSocket.CloseEvent).reason), at: Date.now() })),
      ),
    };
  });
  await waitFor('ticks on both sockets', () => closed.every((c) => c.ticks.length > 0), 10_000);
  const rest = (on: ServerProcess) => fetch(`${on.base}/api/v1/partner/vendors`, { headers: { 'x-api-key': doomed } }).then((r) => r.status);
  expect([await rest(a), await rest(b)]).toEqual([200, 200]);
  // Neither instance revokes it: this process does, straight on the shared database (as the CLI does).
  const revokedAt = Date.now();
  await createPartnersService(database.db).revokeApiKey(doomed.slice(0, 11));
  for (const { closed: done } of closed) {
    const { code, reason, at } = await done;
    expect({ code, reason }).toEqual({ code: 4403, reason: 'API key revoked' });
    expect(at - revokedAt).toBeLessThan(5000);
  }
  // REST on both: refused once the principal cache (AUTH_CACHE_MS, 2 s) has let the key go.
  await waitFor('both instances to refuse the key over REST', async () => (await rest(a)) === 401 && (await rest(b)) === 401, 5000);
}, 60_000);
