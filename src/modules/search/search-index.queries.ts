import { type Kysely, sql } from 'kysely';
import type { DB, SearchEntityType } from '../../platform/db/types.ts';
import { VectorValue } from '../../platform/db/vector-value.ts';

/**
 * One HNSW graph per entity type (docs/decisions.md "One graph per entity type"): a partial index each, searched
 * each for its own nearest rows. In one graph shared by all types, a flood of one type (a partner's 100k invoices)
 * re-wired the graph around itself: the receipts indexed before it lost every edge that led to them and no search
 * could reach them, however wide its candidate list.
 */
const SEARCH_TYPES = ['invoice', 'receipt', 'vendor'] as const satisfies readonly SearchEntityType[];
const indexOf = (type: SearchEntityType) => `search_documents__${type}_embedding_hnsw_idx`;
/** The one index of all types, before the per-type graphs: dropped at start. */
const SHARED_INDEX = 'search_documents__embedding_hnsw_idx';
/**
 * The HNSW graph's build options (docs/decisions.md "HNSW at 100k rows"): 12 neighbours per node and a candidate list
 * of 200 while inserting give a graph that a narrower search walks to the same recall — at 100k rows, 95% of the exact
 * top 10 in about two thirds of the time pgvector's defaults (16 / 64) needed. An index built with other options is
 * rebuilt at start.
 */
const HNSW_OPTIONS = ['m=12', 'ef_construction=200'];
/** The search's candidate list (pgvector's default is 40); see nearestSearchDocuments. */
const EF_SEARCH = 140;
/** pgvector refuses a larger hnsw.ef_search (valid range 1..1000). */
const MAX_EF_SEARCH = 1000;
/** pg_advisory_xact_lock key of the column's preparation ("search" in ASCII). */
const PREPARE_LOCK = 0x736561726368;

/**
 * Types the vector column for the embedder's dimension and builds the HNSW cosine index of each entity type. When
 * the dimension changes, rows of the old dimension are dropped (they cannot be compared; `admin reindex` rebuilds
 * them). Returns the number of rows dropped. One transaction under an advisory lock: instances starting together on
 * one database take turns (otherwise two ALTERs deadlock, and two CREATE INDEX IF NOT EXISTS collide on the name).
 */
export async function prepareVectorColumn(db: Kysely<DB>, dimensions: number): Promise<number> {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 2000) throw new Error(`unsupported vector dimension ${dimensions}`);
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${sql.lit(PREPARE_LOCK)})`.execute(trx);
    const current = await sql<{ type: string }>`
      select format_type(atttypid, atttypmod) as type from pg_attribute
      where attrelid = 'search_documents'::regclass and attname = 'embedding'`.execute(trx);
    const wanted = `vector(${dimensions})`;
    let dropped = 0;
    await sql`drop index if exists ${sql.id(SHARED_INDEX)}`.execute(trx);
    if (current.rows[0]?.type !== wanted) {
      const gone = await sql`delete from search_documents where vector_dims(embedding) <> ${dimensions}`.execute(trx);
      dropped = Number(gone.numAffectedRows ?? 0);
      for (const type of SEARCH_TYPES) await sql`drop index if exists ${sql.id(indexOf(type))}`.execute(trx);
      await sql`alter table search_documents alter column embedding type ${sql.raw(wanted)}`.execute(trx);
    }
    for (const type of SEARCH_TYPES) {
      const built = await sql<{ options: string[] | null }>`select reloptions as options from pg_class where relname = ${indexOf(type)}`.execute(trx);
      const options = built.rows[0] && [...(built.rows[0].options ?? [])].sort().join();
      if (options !== undefined && options !== [...HNSW_OPTIONS].sort().join()) await sql`drop index ${sql.id(indexOf(type))}`.execute(trx);
      await sql`create index if not exists ${sql.id(indexOf(type))} on search_documents using hnsw (embedding vector_cosine_ops)
                with (${sql.raw(HNSW_OPTIONS.join(', '))}) where entity_type = ${sql.lit(type)}`.execute(trx);
    }
    return dropped;
  });
}

export interface SearchDocument {
  entityType: SearchEntityType;
  entityId: string;
  tenantId: string;
  text: string;
  preview: string;
  vendorName: string | null;
  merchantName: string | null;
  total: number | null;
  date: string | null;
}

export async function upsertSearchDocuments(
  db: Kysely<DB>,
  embedderId: string,
  docs: ReadonlyArray<SearchDocument & { embedding: Float32Array }>,
): Promise<void> {
  if (docs.length === 0) return;
  await db
    .insertInto('searchDocuments')
    .values(docs.map(({ embedding, ...d }) => ({ ...d, embedderId, embedding: sql<string>`${new VectorValue(embedding)}`, indexedAt: new Date() })))
    .onConflict((oc) =>
      oc.columns(['entityType', 'entityId']).doUpdateSet((eb) => ({
        text: eb.ref('excluded.text'),
        preview: eb.ref('excluded.preview'),
        vendorName: eb.ref('excluded.vendorName'),
        merchantName: eb.ref('excluded.merchantName'),
        total: eb.ref('excluded.total'),
        date: eb.ref('excluded.date'),
        embedderId: eb.ref('excluded.embedderId'),
        embedding: eb.ref('excluded.embedding'),
        indexedAt: eb.ref('excluded.indexedAt'),
      })),
    )
    .execute();
}

export interface SearchHit {
  entityType: SearchEntityType;
  entityId: string;
  /** The indexed text (names, what was bought, categories). */
  text: string;
  preview: string;
  vendorName: string | null;
  merchantName: string | null;
  total: string | null;
  date: string | null;
  cosine: number;
}

/**
 * The `limit` nearest rows to `vector` among the tenants' rows: the nearest `limit` of each entity type (of `type`
 * only when given), each from its own graph, merged by distance. The tenant filter is applied inside each HNSW scan
 * with pgvector's iterative scan (relaxed order, re-sorted here), so a filtered query still returns `limit` rows when
 * that many exist. The query vector is bound once (the CTE `q`; a VectorValue, binary on the embedded database) and
 * read by every scan.
 */
export async function nearestSearchDocuments(
  db: Kysely<DB>,
  q: { tenantIds: readonly string[]; embedderId: string; vector: Float32Array; type?: SearchEntityType | null; limit: number },
): Promise<SearchHit[]> {
  if (q.tenantIds.length === 0) return [];
  const v = new VectorValue(q.vector);
  // The limit and the tenants are written into the statement, not bound. A bound LIMIT makes the planner cost a
  // prepared statement's generic plan as if it read a tenth of the rows, so every search was planned anew (30 of 30
  // plans custom, ~0.5–1 ms each on PGlite). Written, the generic plan is chosen after five runs and kept, and it is
  // still planned knowing the tenant (its share of the rows, as each custom plan was), not for an average tenant: one
  // prepared statement per tenant and limit (pglite-protocol.ts keeps 200). Kysely writes a string literal escaped, and
  // the uuid column rejects anything else, as it would a bound value.
  if (!Number.isInteger(q.limit) || q.limit < 1) throw new Error(`invalid search limit ${q.limit}`);
  const limit = sql.lit(q.limit);
  const tenants = sql.join(q.tenantIds.map((id) => sql.lit(id)));
  const nearestOf = (type: SearchEntityType) => sql`(
        select entity_type, entity_id, text, preview, vendor_name, merchant_name, total, date,
               embedding <=> (select v from q) as distance
        from search_documents
        where tenant_id in (${tenants}) and embedder_id = ${q.embedderId} and entity_type = ${sql.lit(type)}
        order by embedding <=> (select v from q)
        limit ${limit})`;
  const types = q.type ? [q.type] : SEARCH_TYPES;
  // The scans' settings are set by the statement itself, local to its transaction: the CTE `settings` runs before
  // any scan reads them, because every scan's ordering key is the vector of `q`, which reads `settings`, and pgvector
  // reads the settings at the scan's first row (test/db/search-graphs.test.ts proves it). One statement is one
  // exchange with the database; BEGIN, SET and COMMIT around it were three more (~0.7 ms on the database's thread).
  // ef_search: a wider candidate list than pgvector's default 40. At 100k rows, HNSW levels being random, builds of
  // the same rows returned 90.7–97.3% of the exact top 10 at 100 and 95.3–98% at 140 (docs/decisions.md "One graph
  // per entity type", "Vectors sent in binary"); the far queries, whose nearest rows lie within a hundredth of each
  // other, need the wider list. 140 costs what 100 did while each vector was sent as text. Ten candidates a row asked
  // for, up to pgvector's maximum: a relevantOnly search asks for up to 150 rows (1,500 was refused, a 500).
  const efSearch = Math.min(MAX_EF_SEARCH, Math.max(EF_SEARCH, q.limit * 10));
  const rows = await sql<SearchHit>`
    with settings as materialized (
      select set_config('hnsw.iterative_scan', 'relaxed_order', true) as iterative_scan,
             set_config('hnsw.ef_search', ${String(efSearch)}, true) as ef_search),
    q as materialized (select ${v}::vector as v from settings),
    nearest as materialized (${sql.join(types.map(nearestOf), sql` union all `)})
    select entity_type, entity_id, text, preview, vendor_name, merchant_name, total, to_char(date, 'YYYY-MM-DD') as date,
           1 - distance as cosine
    from nearest order by distance, entity_id limit ${limit}`.execute(db);
  return rows.rows.map((r) => ({ ...r, cosine: Number(r.cosine) }));
}

/** How many rows were embedded by another embedder than `embedderId` (they need `admin reindex`). */
export async function countStaleSearchDocuments(db: Kysely<DB>, embedderId: string): Promise<number> {
  const row = await db
    .selectFrom('searchDocuments')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('embedderId', '<>', embedderId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Removes rows of other embedders (after a reindex they describe entities that no longer exist). */
export async function deleteStaleSearchDocuments(db: Kysely<DB>, embedderId: string): Promise<number> {
  const res = await db.deleteFrom('searchDocuments').where('embedderId', '<>', embedderId).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** How many entities a full reindex covers. */
export async function countIndexable(db: Kysely<DB>): Promise<number> {
  const r = await sql<{ n: string }>`
    select (select count(*) from invoices where status = 'processed' and duplicate_of is null)
         + (select count(*) from receipts where status = 'processed' and duplicate_of is null)
         + (select count(*) from vendors) as n`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}

/** Refreshes the planner's statistics of the index table (row count, tenant distribution). */
export async function analyzeSearchDocuments(db: Kysely<DB>): Promise<void> {
  await sql`analyze search_documents`.execute(db);
}
