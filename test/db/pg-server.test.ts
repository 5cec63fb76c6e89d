import { sql } from 'kysely';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, onTestFinished, test } from 'vitest';
import { connect, type Database } from '../../src/platform/db/connect.ts';
import { migrateToLatest, pendingMigrations } from '../../src/platform/db/migrate.ts';
import { migrations } from '../../src/platform/db/migrations/index.ts';
import { createPartnersService } from '../../src/modules/partners/partners.service.ts';
import { createLocalEmbedder } from '../../src/platform/embeddings/index.ts';
import { createDocumentReader } from '../../src/extraction/reader.ts';
import { createServices } from '../../src/app/services.ts';
import { createLocalBlobStore } from '../../src/platform/storage/local-blob-store.ts';
import { prepareVectorColumn } from '../../src/modules/search/search-index.queries.ts';
import { serverDatabase, type ServerDatabase, testDatabaseKind } from '../helpers/db.ts';

// The production path: DATABASE_URL → pg Pool → Postgres wire protocol, starting from an empty database so the
// migrations run through `pg` exactly as in production. The server is the run's PostgreSQL (TEST_DATABASE_URL),
// or else PGlite behind pglite-socket on loopback.
let server: ServerDatabase;
let database: Database;

beforeAll(async () => {
  server = await serverDatabase({ migrated: false });
  database = await connect({ databaseUrl: server.url, poolSize: 4 });
});
afterAll(async () => {
  await database?.close();
  await server?.close();
});

test('migrations run through pg against a server and are recorded', async () => {
  expect(database.kind).toBe('postgres');
  const applied = await migrateToLatest(database.db);
  expect(applied).toEqual(Object.keys(migrations));
  expect(await pendingMigrations(database.db)).toEqual([]);
  expect(await migrateToLatest(database.db)).toEqual([]); // forward-only and idempotent
  const tables = await sql<{ tableName: string }>`
    select table_name from information_schema.tables where table_schema = 'public' order by table_name`.execute(database.db);
  expect(tables.rows.map((r) => r.tableName)).toEqual(expect.arrayContaining(['api_keys', 'partners', 'stores', 'tenants', 'vendors']));
  const ext = await sql<{ extname: string }>`select extname from pg_extension where extname = 'vector'`.execute(database.db);
  expect(ext.rows).toHaveLength(1);
});

test('instances starting together type the vector column and build its index once, without colliding', async () => {
  const instances = await Promise.all([1, 2, 3].map(() => connect({ databaseUrl: server.url, poolSize: 2 })));
  onTestFinished(() => Promise.all(instances.map((i) => i.close())).then(() => undefined));
  const results = await Promise.allSettled(instances.map((i) => prepareVectorColumn(i.db, 356)));
  expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok']);
  const column = await sql<{ type: string }>`
    select format_type(atttypid, atttypmod) as type from pg_attribute
    where attrelid = 'search_documents'::regclass and attname = 'embedding'`.execute(database.db);
  expect(column.rows).toEqual([{ type: 'vector(356)' }]);
  const indexes = await sql<{ indexname: string }>`select indexname from pg_indexes where tablename = 'search_documents' and indexdef like '%hnsw%'`.execute(
    database.db,
  );
  expect(indexes.rows.map((r) => r.indexname).sort()).toEqual([
    'search_documents__invoice_embedding_hnsw_idx',
    'search_documents__receipt_embedding_hnsw_idx',
    'search_documents__vendor_embedding_hnsw_idx',
  ]);
});

test("an index built with other HNSW options is rebuilt with the search's; one built with them is kept; the one shared index goes", async () => {
  const name = 'search_documents__receipt_embedding_hnsw_idx';
  const index = (relname: string) =>
    sql<{ oid: number; options: string[] | null }>`select oid::int as oid, reloptions as options from pg_class where relname = ${relname}`
      .execute(database.db)
      .then((r) => r.rows[0]);
  await sql`drop index if exists ${sql.id(name)}`.execute(database.db);
  await sql`create index ${sql.id(name)} on search_documents using hnsw (embedding vector_cosine_ops) where entity_type = 'receipt'`.execute(database.db);
  // The index of every type that came before the per-type graphs.
  await sql`create index search_documents__embedding_hnsw_idx on search_documents using hnsw (embedding vector_cosine_ops)`.execute(database.db);
  expect((await index(name))?.options).toBeNull(); // pgvector's defaults (m 16, ef_construction 64)
  await prepareVectorColumn(database.db, 356);
  const rebuilt = await index(name);
  expect([...(rebuilt?.options ?? [])].sort()).toEqual(['ef_construction=200', 'm=12']);
  expect(await index('search_documents__embedding_hnsw_idx')).toBeUndefined();
  await prepareVectorColumn(database.db, 356);
  expect((await index(name))?.oid).toBe(rebuilt?.oid);
});

test('a partner, its key and an authenticated lookup work over the wire', async () => {
  const reader = createDocumentReader({ size: 1 });
  onTestFinished(() => reader.close());
  const embedder = await createLocalEmbedder(inject('wordVectorCacheDir'));
  const blobs = createLocalBlobStore(mkdtempSync(path.join(os.tmpdir(), 'blobs-')));
  const services = createServices(database.db, { reader, blobs, embedder, log: console });
  const created = await services.partners.createPartner({ name: 'Wire Co', tier: 'extraction', legacyPlan: 'starter' });
  const principal = await services.authenticate(created.apiKey);
  expect(principal).toMatchObject({ partner: { id: created.partnerId, tier: 'extraction', legacyPlan: 'starter' }, defaultTenantId: created.tenantId });
  const stored = await database.db.selectFrom('apiKeys').select(['keyHash', 'prefix']).where('partnerId', '=', created.partnerId).execute();
  expect(stored).toHaveLength(1);
  expect(stored[0]!.keyHash).toMatch(/^[0-9a-f]{64}$/);
  expect(stored[0]!.keyHash).not.toContain(created.apiKey.slice(3));
  expect(await services.vendors.list(principal, {})).toEqual([]);
});

test('constraints hold: one external store id per tenant, tier values checked', async () => {
  const partners = createPartnersService(database.db);
  const { tenantId } = await partners.createPartner({ name: 'Stores Co', tier: 'embed' });
  await database.db.insertInto('stores').values({ tenantId, externalStoreId: 'X-1' }).execute();
  await expect(database.db.insertInto('stores').values({ tenantId, externalStoreId: 'X-1' }).execute()).rejects.toMatchObject({
    constraint: 'stores__tenant_id_external_store_id',
  });
  await expect(sql`insert into partners (name, tier) values ('bad', 'gold')`.execute(database.db)).rejects.toMatchObject({
    constraint: 'partners__tier',
  });
});

// PostgreSQL only: PGlite behind pglite-socket has no pg_terminate_backend.
test.runIf(testDatabaseKind() === 'postgres')(
  'the server ending a connection in the middle of a transaction fails that transaction, not the process',
  async () => {
    const failed = database.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
      // Between two statements, as a background loop's transaction is while it works: the server ends it.
      await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(database.db);
      await new Promise((r) => setTimeout(r, 300));
      await sql`select 1`.execute(trx);
    });
    await expect(failed).rejects.toThrow();
    // The process is still here (an unhandled 'error' would have ended the test run), and the pool serves again.
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
    expect(rows).toEqual([{ one: 1 }]);
  },
);
