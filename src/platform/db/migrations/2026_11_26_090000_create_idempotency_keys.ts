import { type Kysely, sql } from 'kysely';

// Frozen. Idempotency-Key on POSTs and GraphQL mutations (issue 18): one row per partner and key, holding the
// request's fingerprint and, once it finished, the response to replay for 24 hours. A row `running` is the lock
// concurrent retries wait on.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table idempotency_keys (
      partner_id uuid not null references partners (id) on delete cascade,
      key text not null,
      fingerprint text not null,
      state text not null constraint idempotency_keys__state check (state in ('running', 'done')),
      status integer,
      content_type text,
      body text,
      created_at timestamptz not null default now(),
      completed_at timestamptz,
      primary key (partner_id, key)
    )`.execute(db);
  await sql`create index idempotency_keys__created_at on idempotency_keys (created_at)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
