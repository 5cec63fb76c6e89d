import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { nearestSearchDocuments, prepareVectorColumn, upsertSearchDocuments } from '../../src/modules/search/search-index.queries.ts';
import type { Database } from '../../src/platform/db/connect.ts';
import type { SearchEntityType } from '../../src/platform/db/types.ts';
import { freshDatabase, testDatabaseKind } from '../helpers/db.ts';

// One HNSW graph per entity type: a flood of invoices cannot cut the receipts and vendors off the graph they are
// searched in. Each search walks every type's own partial index and merges the nearest rows by distance.

const DIMS = 4;
const EMBEDDER = 'test:4d';
let database: Database;
let tenantId: string;

const unit = (v: number[]) => {
  const n = Math.hypot(...v);
  return Float32Array.from(v.map((x) => x / n));
};

beforeAll(async () => {
  database = await freshDatabase();
  await prepareVectorColumn(database.db, DIMS);
  const partner = await sql<{ id: string }>`insert into partners (name, tier) values ('graphs', 'embed') returning id`.execute(database.db);
  const tenant = await sql<{ id: string }>`insert into tenants (partner_id, name) values (${partner.rows[0]!.id}, 'main') returning id`.execute(database.db);
  tenantId = tenant.rows[0]!.id;
  const doc = (entityType: SearchEntityType, i: number, v: number[]) => ({
    entityType,
    entityId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    tenantId,
    text: `${entityType} ${i}`,
    preview: `${entityType} ${i}`,
    vendorName: null,
    merchantName: null,
    total: null,
    date: null,
    embedding: unit(v),
  });
  await upsertSearchDocuments(database.db, EMBEDDER, [
    doc('receipt', 1, [1, 0.05, 0.1, 0]),
    doc('vendor', 2, [1, 0, 0.3, 0]),
    ...Array.from({ length: 300 }, (_, i) => doc('invoice', 100 + i, [0.2 + (i % 17) / 10, 1, (i % 5) / 10, 1])),
  ]);
  await sql`analyze search_documents`.execute(database.db);
}, 60_000);

afterAll(() => database?.close());

test('each entity type has its own HNSW index; the index of every type is gone', async () => {
  const indexes = await sql<{ indexname: string; indexdef: string }>`
    select indexname, indexdef from pg_indexes where tablename = 'search_documents' and indexdef like '%hnsw%' order by indexname`.execute(database.db);
  expect(indexes.rows.map((r) => r.indexname)).toEqual([
    'search_documents__invoice_embedding_hnsw_idx',
    'search_documents__receipt_embedding_hnsw_idx',
    'search_documents__vendor_embedding_hnsw_idx',
  ]);
  for (const r of indexes.rows) expect(r.indexdef).toMatch(/WHERE \(entity_type = '(invoice|receipt|vendor)'::text\)$/);
});

test('a search merges the nearest of every type by distance; a type filter walks that type only', async () => {
  const vector = unit([1, 0.05, 0.1, 0]);
  const all = await nearestSearchDocuments(database.db, { tenantIds: [tenantId], embedderId: EMBEDDER, vector, limit: 5 });
  expect(all.map((h) => h.entityType)).toEqual(['receipt', 'vendor', 'invoice', 'invoice', 'invoice']);
  expect(all.map((h) => h.cosine)).toEqual([...all.map((h) => h.cosine)].sort((a, b) => b - a));
  const invoices = await nearestSearchDocuments(database.db, { tenantIds: [tenantId], embedderId: EMBEDDER, vector, type: 'invoice', limit: 5 });
  expect(invoices.map((h) => h.entityType)).toEqual(Array(5).fill('invoice'));
  expect(invoices.slice(0, 3)).toEqual(all.filter((h) => h.entityType === 'invoice'));
});

test('with sequential scans off the planner walks each type’s own graph', async () => {
  const plan = await database.db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    return sql<Record<string, string>>`explain
      with q as materialized (select ${'[1,0,0,0]'}::vector as v)
      (select entity_id from search_documents where entity_type = 'invoice' order by embedding <=> (select v from q) limit 3)
      union all
      (select entity_id from search_documents where entity_type = 'receipt' order by embedding <=> (select v from q) limit 3)`.execute(trx);
  });
  const text = plan.rows.map((r) => Object.values(r)[0]).join('\n');
  expect(text).toContain('Index Scan using search_documents__invoice_embedding_hnsw_idx');
  expect(text).toContain('Index Scan using search_documents__receipt_embedding_hnsw_idx');
});

test('the statement sets its own scan settings before its scans read them (iterative scan, ef_search)', async () => {
  // Another tenant's 250 invoices sit right at the query; this tenant's 4 are farther. A scan that stops at its
  // candidate list (iterative scan off) sees only the other tenant's rows and, filtered, returns nothing.
  const partner = await sql<{ id: string }>`insert into partners (name, tier) values ('crowd', 'embed') returning id`.execute(database.db);
  const other = await sql<{ id: string }>`insert into tenants (partner_id, name) values (${partner.rows[0]!.id}, 'crowd') returning id`.execute(database.db);
  const near = (i: number) => unit([0.01 * (i % 10), 1, 0.01 * Math.floor(i / 10), 0.02]);
  const at = (i: number) => `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`;
  await upsertSearchDocuments(
    database.db,
    EMBEDDER,
    Array.from({ length: 250 }, (_, i) => ({
      entityType: 'invoice' as const,
      entityId: at(i),
      tenantId: other.rows[0]!.id,
      text: `crowd ${i}`,
      preview: `crowd ${i}`,
      vendorName: null,
      merchantName: null,
      total: null,
      date: null,
      embedding: near(i),
    })),
  );
  const vector = unit([0, 1, 0, 0]);
  const outcome = await database.db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    await sql`set local hnsw.iterative_scan = off`.execute(trx);
    await sql`set local hnsw.ef_search = 40`.execute(trx);
    // The control: the same scan without the statement's settings finds none of this tenant's rows.
    const bare = await sql<{ entityId: string }>`
      select entity_id from search_documents where tenant_id = ${tenantId} and entity_type = 'invoice'
      order by embedding <=> ${`[${Array.from(vector).join(',')}]`}::vector limit 4`.execute(trx);
    const hits = await nearestSearchDocuments(trx, { tenantIds: [tenantId], embedderId: EMBEDDER, vector, type: 'invoice', limit: 4 });
    const settings = await sql<{ ef: string; scan: string }>`
      select current_setting('hnsw.ef_search') as ef, current_setting('hnsw.iterative_scan') as scan`.execute(trx);
    return { bare: bare.rows.length, hits, settings: settings.rows[0] };
  });
  expect(outcome.bare).toBe(0);
  expect(outcome.hits).toHaveLength(4);
  expect(new Set(outcome.hits.map((h) => h.entityType))).toEqual(new Set(['invoice']));
  expect(outcome.settings).toEqual({ ef: '140', scan: 'relaxed_order' });
});

// The embedded dialect prepares each statement once (pglite-protocol.ts); node-postgres through Kysely does not.
test.runIf(testDatabaseKind() !== 'postgres')('repeated searches run on the prepared statement’s kept plan, not a new plan each', async () => {
  await sql`analyze search_documents`.execute(database.db);
  const vector = unit([0.3, 1, 0.2, 1]);
  for (let i = 0; i < 8; i++) await nearestSearchDocuments(database.db, { tenantIds: [tenantId], embedderId: EMBEDDER, vector, type: 'invoice', limit: 3 });
  const plans = await sql<{ statement: string; genericPlans: string; customPlans: string }>`
    select statement, generic_plans, custom_plans from pg_prepared_statements
    where statement like '%set_config(''hnsw.ef_search''%' and statement like '%''invoice''%' and statement not like '%''receipt''%'`.execute(database.db);
  // The limit is written into the statement (bound as $n, a 100k-row table had every search planned for its values,
  // 30 of 30: docs/decisions.md "The search's plan is kept"; a table this small keeps a generic plan either way).
  const mine = plans.rows.filter((r) => /limit 3\b/.test(r.statement));
  expect(mine).toHaveLength(1);
  // Postgres plans the first five runs for their values, then keeps the generic plan when it costs no more.
  expect([Number(mine[0]!.customPlans), Number(mine[0]!.genericPlans)]).toEqual([5, 3]);
});
