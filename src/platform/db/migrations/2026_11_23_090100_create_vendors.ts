import { type Kysely, sql } from 'kysely';

// Frozen. Vendors carry running totals that the invoice writes keep up to date in the same
// transaction, so listing vendors by spend never scans invoices.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table vendors (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null constraint vendors__tenant_id references tenants (id) on delete cascade,
      name text not null,
      normalized_name text not null,
      invoice_count integer not null default 0,
      total_spent numeric(14, 2) not null default 0,
      created_at timestamptz not null default now(),
      constraint vendors__tenant_id_normalized_name unique (tenant_id, normalized_name)
    )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
