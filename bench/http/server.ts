// The server side of `npm run bench -- http` (a child process, so the load generator does not share its event loop).
// It starts the real server (startApp: the one composition root) on a fresh embedded database, or on DATABASE_URL,
// seeds the demo restaurant group, and serves next to it, on a second Fastify instance in the same process:
//   (a) /bare/*   the bytes the REST route answers, from memory (the ceiling of Fastify + HTTP here);
//   (b) /direct/* hand-written routes: the same authentication, the same service calls and SQL through the same
//                 Kysely and database connection, JSON out, no GraphQL.
// It prints one JSON line (urls, ids, key) and runs until SIGTERM.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { vector } from '@electric-sql/pglite-pgvector';
import Fastify from 'fastify';
import { CamelCasePlugin, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { connect, type Database } from '../../src/platform/db/connect.ts';
import type { DB } from '../../src/platform/db/types.ts';
import { keyFromHeaders } from '../../src/platform/auth/authenticate.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { readMultipart, registerMultipart } from '../../src/platform/http/multipart.ts';
import { requiredFile } from '../../src/platform/rest/input.ts';
import { DEMO_PARTNER_NAME, seedDemo } from '../../src/app/admin/demo-seed.ts';
import { startApp } from '../../src/main.ts';
import { makeInvoicePdf, produceInvoice } from '../../test/fixtures/invoice-documents.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'partner-api-bench-http-'));

/**
 * BENCH_DB_DRIVER=pg-adapter: the embedded database as it was before issue 17, Kysely → `pg` Pool → PGlite's
 * node-postgres adapter (the wire protocol emulated in JS), to compare with the direct driver in one run.
 */
async function pgAdapterDatabase(): Promise<Database> {
  const pglite = await PGlite.create({ dataDir: path.join(dataDir, 'pgdata'), extensions: { vector } });
  const pool = new pg.Pool(createPgConfig(pglite));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] });
  return { db, kind: 'pglite', pool, pglite, close: async () => (await db.destroy(), await pglite.close()) };
}
/** BENCH_DB_DRIVER=in-thread: the embedded database on the event loop's thread, as before it had its own. */
async function inThreadDatabase(): Promise<Database> {
  return connect({ dataDir, sharedBuffers: loadConfig(process.env).pgliteSharedBuffers, inThisThread: true });
}
const driver = process.env.DATABASE_URL ? undefined : process.env.BENCH_DB_DRIVER;
const preset = driver === 'pg-adapter' ? await pgAdapterDatabase() : driver === 'in-thread' ? await inThreadDatabase() : undefined;
const app = await startApp({
  config: loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir, METADATA_SERVER_DETECTION: 'none' }),
  database: preset,
});
const { services, database } = app;
const db = database.db;

/** The demo partner: seeded here, or (a reused PostgreSQL database) its default tenant with a new key. */
async function demo(): Promise<{ apiKey: string; tenantId: string }> {
  const existing = await db.selectFrom('partners').select('id').where('name', '=', DEMO_PARTNER_NAME).executeTakeFirst();
  if (!existing) return seedDemo(services, db);
  const tenant = await db.selectFrom('tenants').select('id').where('partnerId', '=', existing.id).where('isDefault', '=', true).executeTakeFirstOrThrow();
  return { apiKey: (await services.partners.createApiKey({ partnerId: existing.id })).apiKey, tenantId: tenant.id };
}
const { apiKey, tenantId } = await demo();
const item = await db
  .selectFrom('inventoryItems')
  .select(['id', 'storeId'])
  .where('tenantId', '=', tenantId)
  .where('storeId', 'is not', null)
  .where('active', '=', true)
  .executeTakeFirstOrThrow();
const pdf = await makeInvoicePdf(produceInvoice);

// What the REST routes answer, to serve as (a).
const key = { 'x-api-key': apiKey };
const itemsBytes = await (await fetch(`${app.url}/api/v1/partner/tenants/${tenantId}/inventory/items`, { headers: key })).text();
const countBody = JSON.stringify({ storeId: item.storeId, itemId: item.id, quantity: 3 });
const countBytes = await (
  await fetch(`${app.url}/api/v1/partner/tenants/${tenantId}/inventory/counts`, {
    method: 'POST',
    headers: { ...key, 'content-type': 'application/json' },
    body: countBody,
  })
).text();
const form = new FormData();
form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'invoice.pdf');
const uploadBytes = await (await fetch(`${app.url}/api/v1/partner/invoices/upload`, { method: 'POST', headers: key, body: form })).text();

const aux = Fastify({ logger: false });
await registerMultipart(aux);
const json = 'application/json; charset=utf-8';
aux.get('/bare/items', async (_req, reply) => reply.type(json).send(itemsBytes));
aux.post('/bare/counts', async (_req, reply) => reply.code(201).type(json).send(countBytes));
aux.post('/bare/upload', async (_req, reply) => reply.code(201).type(json).send(uploadBytes));

const principalOf = (headers: Record<string, string | string[] | undefined>) => services.authenticate(keyFromHeaders(headers, 'x-api-key'));
aux.get<{ Params: { tenantId: string } }>('/direct/tenants/:tenantId/inventory/items', async (req) => {
  const tenant = await services.tenants.resolve(await principalOf(req.headers), req.params.tenantId);
  return { items: await services.inventory.items(tenant, {}) };
});
aux.post<{ Params: { tenantId: string }; Body: { storeId: string; itemId: string; quantity: number } }>(
  '/direct/tenants/:tenantId/inventory/counts',
  async (req, reply) => {
    const tenant = await services.tenants.resolve(await principalOf(req.headers), req.params.tenantId);
    // The same fields as the REST answer: the count with its item, unit cost and value.
    const { count, item } = await services.inventory.recordCount(tenant, req.body);
    const value = item.defaultCost === null ? null : Math.round(count.baseQuantity * item.defaultCost * 100) / 100;
    return reply.code(201).send({ count: { ...count, unitCost: item.defaultCost, value, item } });
  },
);
aux.post('/direct/invoices/upload', async (req, reply) => {
  const principal = await principalOf(req.headers);
  const file = requiredFile(await readMultipart(req), 'file');
  const [invoice, ...splitInvoices] = await services.uploads.uploadInvoice(principal, { file, channel: 'v1' });
  return reply.code(201).send({ ...invoice, splitInvoices });
});
await aux.listen({ port: 0, host: '127.0.0.1' });
const auxAddress = aux.server.address();
const auxPort = typeof auxAddress === 'object' && auxAddress ? auxAddress.port : 0;

process.stdout.write(
  `${JSON.stringify({
    rest: `http://127.0.0.1:${app.port}`,
    aux: `http://127.0.0.1:${auxPort}`,
    database: database.kind,
    apiKey,
    tenantId,
    storeId: item.storeId,
    itemId: item.id,
    pdfBase64: pdf.toString('base64'),
    bytes: { items: itemsBytes.length, count: countBytes.length, upload: uploadBytes.length },
  })}\n`,
);

// Gone with its parent (an interrupted run), and never stuck in a shutdown behind a queue of uploads.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && process.kill(process.pid, 'SIGTERM'), 1000).unref();
process.on('SIGTERM', () => {
  setTimeout(() => process.exit(0), 5000).unref();
  void (async () => {
    await aux.close();
    await app.close();
    await preset?.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  })();
});
