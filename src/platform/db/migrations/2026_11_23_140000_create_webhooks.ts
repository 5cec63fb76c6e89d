import { type Kysely, sql } from 'kysely';

// Frozen. Partner webhook endpoints, the durable queue of deliveries to them (one row per endpoint and event,
// claimed with FOR UPDATE SKIP LOCKED), and a log of every attempt.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table webhooks (
      id uuid primary key default gen_random_uuid(),
      partner_id uuid not null constraint webhooks__partner_id references partners (id) on delete cascade,
      tenant_id uuid constraint webhooks__tenant_id references tenants (id) on delete cascade,
      url text not null constraint webhooks__url_length check (length(url) between 1 and 2048),
      events text[] not null constraint webhooks__events check (cardinality(events) >= 1),
      secret text not null,
      previous_secret text,
      previous_secret_expires_at timestamptz,
      enabled boolean not null default true,
      disabled_reason text,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index webhooks__partner_id_idx on webhooks (partner_id)`.execute(db);

  // payload is the whole body that is signed and sent: {type, timestamp, data}.
  // retry_from = attempts at the last (re)queue: the retry schedule restarts after a replay.
  await sql`
    create table webhook_deliveries (
      id uuid primary key default gen_random_uuid(),
      webhook_id uuid not null constraint webhook_deliveries__webhook_id references webhooks (id) on delete cascade,
      event_id uuid not null,
      event_type text not null,
      payload jsonb not null,
      status text not null default 'pending'
        constraint webhook_deliveries__status check (status in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      retry_from integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      locked_until timestamptz,
      last_status integer,
      last_error text,
      created_at timestamptz not null default now(),
      delivered_at timestamptz,
      constraint webhook_deliveries__webhook_id_event_id unique (webhook_id, event_id)
    )`.execute(db);
  await sql`
    create index webhook_deliveries__due_idx on webhook_deliveries (next_attempt_at) where status = 'pending'`.execute(db);
  await sql`
    create index webhook_deliveries__webhook_id_created_at_idx on webhook_deliveries (webhook_id, created_at desc)`.execute(db);

  await sql`
    create table webhook_attempts (
      delivery_id uuid not null constraint webhook_attempts__delivery_id references webhook_deliveries (id) on delete cascade,
      attempt integer not null,
      started_at timestamptz not null,
      status_code integer,
      latency_ms integer not null,
      error text,
      constraint webhook_attempts__pkey primary key (delivery_id, attempt)
    )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
