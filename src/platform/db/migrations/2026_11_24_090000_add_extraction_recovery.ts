import { type Kysely, sql } from 'kysely';

// Frozen. What it takes to finish an invoice whose process died mid-extraction (DESIGN §9, interrupted documents):
// - documents: the blob may be a temporary copy (tiers that do not keep files), deleted once the record ends;
//   who uploaded it (key, channel), so a recovered document is metered as the upload would have been;
// - invoices: the instance extracting a `processing` record holds a lease it renews; an expired lease means
//   the extraction died and any instance may claim the record; attempts bound how often it is tried.
//   Existing rows count as tried once (the default), which they all were.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table documents
      add column blob_temporary boolean not null default false,
      add column api_key_id uuid constraint documents__api_key_id references api_keys (id) on delete set null,
      add column channel text constraint documents__channel check (channel in ('v1', 'legacy', 'adapter', 'graphql'))`.execute(db);
  // The sweep of temporary blobs left by a crash looks only at rows that still hold one.
  await sql`create index documents__temporary_blob_idx on documents (created_at) where blob_temporary and blob_key is not null`.execute(db);

  await sql`
    alter table invoices
      add column processing_owner text,
      add column lease_until timestamptz,
      add column extraction_attempts integer not null default 1
        constraint invoices__extraction_attempts check (extraction_attempts >= 0)`.execute(db);
  // Sweepers look for processing records whose lease ran out; few rows are ever processing.
  await sql`create index invoices__processing_lease_idx on invoices (lease_until) where status = 'processing'`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
