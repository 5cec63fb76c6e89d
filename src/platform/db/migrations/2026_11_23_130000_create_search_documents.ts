import { type Kysely, sql } from 'kysely';

// Frozen. The semantic search index: one row per indexed entity. The vector column is declared without a
// dimension here because the dimension follows the configured embedder; db/search-index.queries.ts
// `prepareVectorColumn` types it (vector(D)) and builds the HNSW cosine index at start-up.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table search_documents (
      entity_type text not null constraint search_documents__entity_type check (entity_type in ('invoice', 'receipt', 'vendor')),
      entity_id uuid not null,
      tenant_id uuid not null constraint search_documents__tenant_id references tenants (id) on delete cascade,
      text text not null,
      preview text not null,
      vendor_name text,
      merchant_name text,
      total numeric(14, 2),
      date date,
      embedder_id text not null,
      embedding vector not null,
      indexed_at timestamptz not null default now(),
      constraint search_documents__pkey primary key (entity_type, entity_id)
    )`.execute(db);
  await sql`create index search_documents__tenant_id_idx on search_documents (tenant_id, entity_type)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
