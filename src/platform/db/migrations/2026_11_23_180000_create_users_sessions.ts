import { type Kysely, sql } from 'kysely';

// Frozen. Tenant users (provisioned by embed sign-in, optionally scoped to one store), one-time tokens (embed
// sign-in and tenant setup links; only their SHA-256 is stored) and browser sessions (cookie token, hashed).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table users (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null constraint users__tenant_id references tenants (id) on delete cascade,
      email text not null,
      name text not null,
      role text not null constraint users__role check (role in ('account_owner', 'executive', 'cfo', 'regional_director',
        'area_director', 'location_manager', 'store_manager', 'accounting', 'supervisor')),
      store_id uuid constraint users__store_id references stores (id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index users__tenant_id_email on users (tenant_id, lower(email))`.execute(db);

  await sql`
    create table one_time_tokens (
      token_hash text primary key,
      kind text not null constraint one_time_tokens__kind check (kind in ('embed', 'setup')),
      tenant_id uuid not null constraint one_time_tokens__tenant_id references tenants (id) on delete cascade,
      user_id uuid constraint one_time_tokens__user_id references users (id) on delete cascade,
      page text,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table sessions (
      token_hash text primary key,
      user_id uuid not null constraint sessions__user_id references users (id) on delete cascade,
      tenant_id uuid not null constraint sessions__tenant_id references tenants (id) on delete cascade,
      expires_at timestamptz not null,
      created_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
