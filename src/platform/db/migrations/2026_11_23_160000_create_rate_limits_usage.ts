import { type Kysely, sql } from 'kysely';

// Frozen. Rate-limit counters (the rate-limiter-flexible Postgres layout: per-minute counters when limits are
// shared across instances, monthly request counts always), the metering of processed documents, and a custom
// per-document price per partner (Platform Embed).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table rate_limits (
      key varchar(255) primary key,
      points integer not null default 0,
      expire bigint
    )`.execute(db);

  await sql`alter table partners add column price_per_document numeric(10, 4)
    constraint partners__price_per_document check (price_per_document >= 0)`.execute(db);

  // One row per processed document (file): what it was, how it came in and what it costs.
  await sql`
    create table usage_records (
      id uuid primary key default gen_random_uuid(),
      partner_id uuid not null constraint usage_records__partner_id references partners (id) on delete cascade,
      tenant_id uuid not null constraint usage_records__tenant_id references tenants (id) on delete cascade,
      api_key_id uuid,
      document_id uuid not null constraint usage_records__document_id unique,
      kind text not null constraint usage_records__kind check (kind in ('invoice', 'receipt')),
      pages integer not null default 1,
      channel text not null constraint usage_records__channel check (channel in ('v1', 'legacy', 'adapter', 'graphql')),
      tier text not null,
      price numeric(10, 4) not null,
      currency text not null default 'USD',
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index usage_records__partner_id_created_at_idx on usage_records (partner_id, created_at)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
