import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import WebSocket from 'ws';
import { connect, createPglite, type Database } from '../../src/platform/db/connect.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { createPartnersService } from '../../src/modules/partners/partners.service.ts';
import { makeInvoicePdf, paperGoodsInvoice, produceInvoice } from '../fixtures/invoice-documents.ts';
import { startPgWireProxy } from '../helpers/pg-wire-proxy.ts';
import { type ServerProcess, serverEnv, startServerProcess } from '../helpers/process.ts';

// Two server processes on one database through the production `pg` path (PGlite served over the Postgres wire
// protocol, which does not carry LISTEN/NOTIFY between connections): events written by either reach the other.
// The wire proxy keeps pglite-socket's single backend from interleaving two connections' extended queries.
let pglite: Awaited<ReturnType<typeof createPglite>>;
let socket: PGLiteSocketServer;
let proxy: Awaited<ReturnType<typeof startPgWireProxy>>;
let database: Database;
const running: ChildProcess[] = [];
const clients: Client[] = [];
let a: ServerProcess;
let b: ServerProcess;
let apiKey: string;
let partnerId: string;

beforeAll(async () => {
  pglite = await createPglite();
  socket = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: 40 });
  await socket.start();
  const [host, port] = socket.getServerConn().split(':');
  proxy = await startPgWireProxy({ host: host!, port: Number(port) });
  const url = `postgres://postgres:postgres@127.0.0.1:${proxy.port}/postgres?sslmode=disable`;
  database = await connect({ databaseUrl: url, poolSize: 2 });
  await migrateToLatest(database.db);
  ({ apiKey, partnerId } = await createPartnersService(database.db).createPartner({ name: 'Two Instances', tier: 'storage' }));
  const env = (name: string) =>
    serverEnv({
      DATABASE_URL: url,
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), `partner-api-${name}-`)),
      EMBEDDINGS_CACHE_DIR: inject('wordVectorCacheDir'),
      EVENTS_POLL_MS: '100',
    });
  [a, b] = await Promise.all([startServerProcess(env('a'), running), startServerProcess(env('b'), running)]);
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  for (const p of running) if (p.exitCode === null) p.kill('SIGTERM');
  await Promise.all(running.map((p) => new Promise((r) => (p.exitCode === null ? p.on('exit', r) : r(null)))));
  await database?.close();
  await proxy?.close();
  await socket?.stop();
  await pglite?.close();
});

function subscribe(server: ServerProcess): { got: Array<{ type: string; vendor: string | null }>; ready: Promise<unknown> } {
  const c = createClient({ url: `${server.base.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { apiKey }, retryAttempts: 0 });
  clients.push(c);
  const got: Array<{ type: string; vendor: string | null }> = [];
  c.subscribe(
    { query: 'subscription { invoiceEvents(types: ["invoice.processed"]) { type invoice { vendorName } } }' },
    { next: (r: any) => got.push({ type: r.data.invoiceEvents.type, vendor: r.data.invoiceEvents.invoice.vendorName }), error: () => {}, complete: () => {} },
  );
  // graphql-ws has no "subscribed" ack: a round trip on the same socket after the subscribe message orders them.
  return { got, ready: c.iterate({ query: '{ viewer { name } }' }).next() };
}

async function upload(server: ServerProcess, pdf: Buffer): Promise<number> {
  const fd = new FormData();
  fd.append('file', new Blob([pdf]), 'i.pdf');
  const res = await fetch(`${server.base}/api/v1/partner/invoices/upload`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: fd });
  return res.status;
}

const waitFor = async (cond: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
};

test('an upload on A reaches a subscriber on B, and one on B reaches A', async () => {
  const { got: onA, ready: readyA } = subscribe(a);
  const { got: onB, ready: readyB } = subscribe(b);
  await Promise.all([readyA, readyB]); // both subscriptions registered
  expect(await upload(a, await makeInvoicePdf(produceInvoice))).toBe(201);
  expect(await upload(b, await makeInvoicePdf(paperGoodsInvoice))).toBe(201);
  await waitFor(() => onA.length >= 2 && onB.length >= 2, 5000);
  const expected = [
    { type: 'invoice.processed', vendor: 'Green Valley Produce Co.' },
    { type: 'invoice.processed', vendor: 'Metro Packaging Supply Inc.' },
  ];
  expect(onA).toEqual(expected);
  expect(onB).toEqual(expected);
}, 60_000);

test('a key revoked elsewhere on the shared database closes its sockets on both instances within 5 s (4403)', async () => {
  const { apiKey: doomed } = await createPartnersService(database.db).createApiKey({ partnerId });
  const closed = [a, b].map((server) => {
    const c = createClient({
      url: `${server.base.replace('http', 'ws')}/graphql`,
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
  await waitFor(() => closed.every((c) => c.ticks.length > 0), 10_000);
  expect(closed.every((c) => c.ticks.length > 0)).toBe(true);
  // Neither instance revokes it: this process does, straight on the shared database (as the CLI does).
  const revokedAt = Date.now();
  await createPartnersService(database.db).revokeApiKey(doomed.slice(0, 11));
  for (const { closed: done } of closed) {
    const { code, reason, at } = await done;
    expect({ code, reason }).toEqual({ code: 4403, reason: 'API key revoked' });
    expect(at - revokedAt).toBeLessThan(5000);
  }
}, 60_000);
