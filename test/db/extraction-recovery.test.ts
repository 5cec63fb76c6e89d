import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { connect, type Database } from '../../src/platform/db/connect.ts';
import { listEvents } from '../../src/platform/events/outbox.queries.ts';
import type { Principal } from '../../src/platform/auth/authenticate.ts';
import { createLocalEmbedder } from '../../src/platform/embeddings/index.ts';
import type { DocumentExtractor } from '../../src/extraction/extractor.ts';
import { createLocalExtractor } from '../../src/extraction/local.extractor.ts';
import { createDocumentReader, type DocumentReader } from '../../src/extraction/reader.ts';
import { createServices, type Services } from '../../src/app/services.ts';
import { BlobNotFoundError, type BlobStore } from '../../src/platform/storage/index.ts';
import { createLocalBlobStore } from '../../src/platform/storage/local-blob-store.ts';
import { equipmentInvoice, invoiceTotals, makeInvoicePdf, paperGoodsInvoice, produceInvoice } from '../fixtures/invoice-documents.ts';
import { serverDatabase, type ServerDatabase } from '../helpers/db.ts';

// Invoices left `processing` by an instance that died, on one database shared by several instances (the `pg`
// path: the run's PostgreSQL, or PGlite over the wire protocol). Each "instance" is its own pool and services with its own lease owner;
// an instance "dies" when its lease keeper stops renewing and its extraction never returns.
let server: ServerDatabase;
const pools: Database[] = [];
let reader: DocumentReader;
let blobs: BlobStore;
let db: Database['db'];
let instance: (owner: string, extractor?: DocumentExtractor, store?: BlobStore) => Promise<Services>;

const LEASE_MS = 1500;
const quiet = { warn() {}, error() {} };

beforeAll(async () => {
  server = await serverDatabase();
  const { url } = server;
  reader = createDocumentReader({ size: 1 });
  blobs = createLocalBlobStore(mkdtempSync(path.join(os.tmpdir(), 'recovery-blobs-')));
  const embedder = await createLocalEmbedder(inject('wordVectorCacheDir'));
  instance = async (owner, extractor, store = blobs) => {
    const database = await connect({ databaseUrl: url, poolSize: 2 });
    pools.push(database);
    return createServices(database.db, { reader, blobs: store, embedder, extractor, log: quiet, lease: { owner, ms: LEASE_MS } });
  };
  const first = await connect({ databaseUrl: url, poolSize: 2 });
  pools.push(first);
  db = first.db;
}, 60_000);

afterAll(async () => {
  for (const p of pools) await p.close();
  await reader?.close();
  await server?.close();
});

/** An extractor whose calls wait until the test lets them go (an extraction in progress when its process died). */
function gatedExtractor() {
  const real = createLocalExtractor(reader);
  const gates: Array<() => void> = [];
  const extractor: DocumentExtractor = {
    provider: 'local',
    extractInvoices: async (bytes, type) => {
      await new Promise<void>((go) => gates.push(go));
      return real.extractInvoices(bytes, type);
    },
    extractReceipt: (bytes, type) => real.extractReceipt(bytes, type),
    close: async () => {},
  };
  return { extractor, gates };
}

const file = (bytes: Buffer) => ({ bytes, filename: 'invoice.pdf', mimetype: 'application/pdf' }) as never;

async function waitFor(cond: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const row = (invoiceId: string) =>
  db
    .selectFrom('invoices')
    .innerJoin('documents', 'documents.id', 'invoices.documentId')
    .select([
      'invoices.status',
      'invoices.error',
      'invoices.processingOwner',
      'invoices.leaseUntil',
      'invoices.extractionAttempts',
      'documents.blobKey',
      'documents.id as documentId',
    ])
    .where('invoices.id', '=', invoiceId)
    .executeTakeFirstOrThrow();

async function processingInvoiceIds(tenantId: string): Promise<string[]> {
  const rows = await db.selectFrom('invoices').select('id').where('tenantId', '=', tenantId).where('status', '=', 'processing').execute();
  return rows.map((r) => r.id);
}

/** Uploads on an instance whose extraction never returns; resolves once the record is `processing` with its bytes stored. */
async function crashedUpload(dead: Services, principal: Principal, pdf: Buffer, keepFile?: boolean): Promise<string> {
  const before = await processingInvoiceIds(principal.defaultTenantId!);
  void dead.uploads.uploadInvoice(principal, { file: file(pdf), channel: 'v1', keepFile }).catch(() => undefined);
  let id = '';
  await waitFor(async () => {
    id = (await processingInvoiceIds(principal.defaultTenantId!)).find((i) => !before.includes(i)) ?? '';
    if (!id) return false;
    const { blobKey } = await row(id);
    return (
      blobKey !== null &&
      (await blobs.get(blobKey).then(
        () => true,
        () => false,
      ))
    );
  }, 10_000);
  return id;
}

function terminalEvents(events: Awaited<ReturnType<typeof listEvents>>, invoiceId: string) {
  return events.filter((e) => e.subjectId === invoiceId && e.type !== 'invoice.created').map((e) => e.type);
}

test('a live lease is left alone; once it runs out exactly one of two sweeping instances claims and finishes the record', async () => {
  const { extractor, gates } = gatedExtractor();
  const a = await instance('instance-a', extractor);
  const [b, c] = await Promise.all([instance('instance-b'), instance('instance-c')]);
  const { apiKey, tenantId } = await a.partners.createPartner({ name: 'Lease Co', tier: 'extraction' });
  const principal = await a.authenticate(apiKey);
  const pdf = await makeInvoicePdf(produceInvoice);
  const uploading = a.uploads.uploadInvoice(principal, { file: file(pdf), channel: 'v1' });
  let invoiceId = '';
  await waitFor(async () => ((invoiceId = (await processingInvoiceIds(tenantId))[0] ?? ''), gates.length === 1), 10_000);
  const started = await row(invoiceId);
  expect(started).toMatchObject({ status: 'processing', processingOwner: 'instance-a', extractionAttempts: 1 });
  expect(started.blobKey).toMatch(new RegExp(`^${tenantId}/invoices/`)); // stored before extraction, although not kept

  // A is alive: its keeper renews the lease every third of it, so sweeps long after the first expiry claim nothing.
  await new Promise((r) => setTimeout(r, LEASE_MS * 2));
  expect(await b.recovery.sweep({ anyOwner: false })).toBe(0);
  expect((await row(invoiceId)).leaseUntil!.getTime()).toBeGreaterThan(started.leaseUntil!.getTime());

  // A dies (no more renewals, its extraction never returns); B and C sweep at the same moment.
  a.keeper.stop();
  await waitFor(
    async () => (await sql<{ expired: boolean }>`select lease_until < now() as expired from invoices where id = ${invoiceId}`.execute(db)).rows[0]!.expired,
    5000,
  );
  const claimed = await Promise.all([b.recovery.sweep({ anyOwner: false }), c.recovery.sweep({ anyOwner: false })]);
  expect(claimed.sort()).toEqual([0, 1]);
  const done = await row(invoiceId);
  expect(done).toMatchObject({ status: 'processed', error: null, processingOwner: null, leaseUntil: null, extractionAttempts: 2, blobKey: null });
  await expect(blobs.get(started.blobKey!)).rejects.toBeInstanceOf(BlobNotFoundError); // the temporary copy is gone

  // A's extraction finally returns: the record is no longer A's, so A reports it as it is and records nothing.
  gates[0]!();
  const [reported] = await uploading;
  expect(reported).toMatchObject({ id: invoiceId, status: 'processed', vendorName: produceInvoice.vendor, total: invoiceTotals(produceInvoice).total });

  const events = await listEvents(db, tenantId);
  expect(events.filter((e) => e.subjectId === invoiceId).map((e) => e.type)).toEqual(['invoice.created', 'invoice.processed']);
  expect(events.filter((e) => e.type === 'vendor.created')).toHaveLength(1);
  const usage = await db.selectFrom('usageRecords').selectAll().where('documentId', '=', done.documentId).execute();
  expect(usage).toMatchObject([{ channel: 'v1', apiKeyId: principal.keyId, kind: 'invoice', tier: 'extraction', price: '0.5000' }]);
  const indexed = await db.selectFrom('searchDocuments').select('entityId').where('entityId', '=', invoiceId).execute();
  expect(indexed).toHaveLength(1);
}, 60_000);

test('a record without its bytes, or interrupted twice, ends failed with the reason; a kept file stays, temporary ones go', async () => {
  const dead = await instance('instance-dead', gatedExtractor().extractor);
  const sweeper = await instance('instance-sweeper');
  const storage = await dead.partners.createPartner({ name: 'Keeps Files', tier: 'storage' });
  const keeps = await dead.authenticate(storage.apiKey);
  const extraction = await dead.partners.createPartner({ name: 'Keeps Nothing', tier: 'extraction' });
  const temp = await dead.authenticate(extraction.apiKey);

  const kept = await crashedUpload(dead, keeps, await makeInvoicePdf(paperGoodsInvoice));
  const missing = await crashedUpload(dead, temp, await makeInvoicePdf(produceInvoice));
  const twice = await crashedUpload(dead, temp, await makeInvoicePdf(produceInvoice));
  const legacy = await crashedUpload(dead, temp, await makeInvoicePdf(produceInvoice));
  dead.keeper.stop();
  const keptKey = (await row(kept)).blobKey!;
  const twiceKey = (await row(twice)).blobKey!;
  await blobs.delete((await row(missing)).blobKey!);
  // Records from before this change (no lease): one old enough to be orphaned, whose Extraction-tier file was never
  // stored; one just opened, which an instance of the old version may still be extracting (a rolling deploy).
  await db
    .updateTable('documents')
    .set({ blobKey: null, blobTemporary: false })
    .where('id', '=', (await row(legacy)).documentId)
    .execute();
  await db
    .updateTable('invoices')
    .set({ processingOwner: null, leaseUntil: null, createdAt: sql<Date>`now() - interval '6 minutes'` })
    .where('id', '=', legacy)
    .execute();
  const inFlight = await crashedUpload(dead, temp, await makeInvoicePdf(produceInvoice));
  await db.updateTable('invoices').set({ processingOwner: null, leaseUntil: null }).where('id', '=', inFlight).execute();
  await db.updateTable('invoices').set({ extractionAttempts: 2 }).where('id', '=', twice).execute();
  // A temporary blob whose record ended just before a crash (between recording the end and deleting the blob).
  const ended = await crashedUpload(dead, temp, await makeInvoicePdf(produceInvoice));
  const endedKey = (await row(ended)).blobKey!;
  await db.updateTable('invoices').set({ status: 'failed', error: 'no invoice could be found in the document' }).where('id', '=', ended).execute();
  await db
    .updateTable('invoices')
    .set({ leaseUntil: sql<Date>`now() - interval '1 second'` })
    .where('processingOwner', '=', 'instance-dead')
    .where('status', '=', 'processing')
    .execute();

  expect(await sweeper.recovery.sweep({ anyOwner: false })).toBe(4);
  expect(await row(kept)).toMatchObject({ status: 'processed', blobKey: keptKey });
  expect((await blobs.get(keptKey)).length).toBeGreaterThan(0);
  expect(await row(missing)).toMatchObject({
    status: 'failed',
    error: 'processing was interrupted and the stored file is missing; upload it again',
    blobKey: null,
  });
  expect(await row(twice)).toMatchObject({
    status: 'failed',
    error: 'processing was interrupted twice; upload the document again',
    blobKey: null,
    extractionAttempts: 3,
  });
  await expect(blobs.get(twiceKey)).rejects.toBeInstanceOf(BlobNotFoundError);
  expect(await row(legacy)).toMatchObject({ status: 'failed', error: 'processing was interrupted and the file was not kept; upload it again' });
  expect(await row(ended)).toMatchObject({ status: 'failed', blobKey: null });
  expect(await row(inFlight)).toMatchObject({ status: 'processing', extractionAttempts: 1 });
  await expect(blobs.get(endedKey)).rejects.toBeInstanceOf(BlobNotFoundError);

  const events = [...(await listEvents(db, storage.tenantId)), ...(await listEvents(db, extraction.tenantId))];
  expect(terminalEvents(events, kept)).toEqual(['invoice.processed']);
  for (const id of [missing, twice, legacy]) expect(terminalEvents(events, id)).toEqual(['invoice.failed']);
  // Only the processed one is charged.
  const charged = await db.selectFrom('usageRecords').select('tenantId').where('tenantId', 'in', [storage.tenantId, extraction.tenantId]).execute();
  expect(charged).toEqual([{ tenantId: storage.tenantId }]);
  expect(await sweeper.recovery.sweep({ anyOwner: false })).toBe(0);
}, 90_000);

test('a running instance sweeps every interval and finishes a record whose owner died after its lease ran out', async () => {
  const dead = await instance('instance-gone', gatedExtractor().extractor);
  const survivor = await instance('instance-survivor');
  const { apiKey, tenantId } = await dead.partners.createPartner({ name: 'Periodic Co', tier: 'storage' });
  const invoiceId = await crashedUpload(dead, await dead.authenticate(apiKey), await makeInvoicePdf(equipmentInvoice));
  const recovery = survivor.recovery.start({ anyOwner: false, everyMs: LEASE_MS / 2 });
  try {
    await recovery.ready; // the first look finds a live lease: nothing to claim yet
    expect((await row(invoiceId)).processingOwner).toBe('instance-gone');
    dead.keeper.stop();
    await waitFor(async () => (await row(invoiceId)).status !== 'processing', 20_000);
    expect(await row(invoiceId)).toMatchObject({ status: 'processed', processingOwner: null, extractionAttempts: 2 });
    expect(terminalEvents(await listEvents(db, tenantId), invoiceId)).toEqual(['invoice.processed']);
  } finally {
    await recovery.stop();
  }
}, 60_000);

test('bytes that cannot be stored end the upload failed (a 500 for the caller), with no blob key and no lease left', async () => {
  const down: BlobStore = { ...blobs, put: async () => Promise.reject(new Error('bucket unavailable')) };
  const a = await instance('instance-no-storage', undefined, down);
  const { apiKey, tenantId } = await a.partners.createPartner({ name: 'No Storage', tier: 'storage' });
  await expect(a.uploads.uploadInvoice(await a.authenticate(apiKey), { file: file(await makeInvoicePdf(produceInvoice)) })).rejects.toThrow(
    'bucket unavailable',
  );
  const [invoice] = await db.selectFrom('invoices').select('id').where('tenantId', '=', tenantId).execute();
  expect(await row(invoice!.id)).toMatchObject({
    status: 'failed',
    error: 'an internal error stopped processing; the upload can be retried',
    blobKey: null,
    processingOwner: null,
    leaseUntil: null,
  });
  expect(terminalEvents(await listEvents(db, tenantId), invoice!.id)).toEqual(['invoice.failed']);
});
