import { type Kysely, sql } from 'kysely';

// Frozen. The object-storage adapter (POST /api/v1/partner/extract): per-partner shape profiles (a declarative
// mapping of an extracted document onto the partner's JSON), and the requests made with a correlation_id, which
// make a retry within 24 hours return the first result instead of extracting (and charging) again.
// `spec` and `response` are json, not jsonb: json keeps the text as written, so the partner's field order survives
// (jsonb reorders keys), both in the shaped output and in a cached response.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table adapter_profiles (
      id uuid primary key default gen_random_uuid(),
      partner_id uuid not null constraint adapter_profiles__partner_id references partners (id) on delete cascade,
      name text not null constraint adapter_profiles__name_length check (length(name) between 1 and 64),
      is_default boolean not null default false,
      spec json not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint adapter_profiles__partner_id_name unique (partner_id, name)
    )`.execute(db);
  // At most one default profile per partner.
  await sql`create unique index adapter_profiles__partner_id_default on adapter_profiles (partner_id) where is_default`.execute(db);

  // One row per (partner, correlation_id): claimed by the first request (pending), then done with the response
  // body, or failed with the error (a failed or expired row is replaced by the next request with the id).
  await sql`
    create table adapter_requests (
      id uuid primary key default gen_random_uuid(),
      partner_id uuid not null constraint adapter_requests__partner_id references partners (id) on delete cascade,
      correlation_id text not null constraint adapter_requests__correlation_id_length check (length(correlation_id) between 1 and 255),
      request_hash text not null,
      -- A short hash per request field, so a 409 can name the fields that differ (no values are kept).
      request_fields jsonb not null default '{}',
      status text not null default 'pending' constraint adapter_requests__status check (status in ('pending', 'done', 'failed')),
      response json,
      error_code text,
      error_message text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint adapter_requests__partner_id_correlation_id unique (partner_id, correlation_id)
    )`.execute(db);
  await sql`create index adapter_requests__created_at_idx on adapter_requests (created_at)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
