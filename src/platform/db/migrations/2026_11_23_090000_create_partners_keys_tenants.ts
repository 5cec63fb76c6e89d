import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped, never import application code.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists vector`.execute(db);
  await sql`
    create table partners (
      id uuid primary key default gen_random_uuid(),
      name text not null constraint partners__name_length check (length(name) between 1 and 200),
      tier text not null constraint partners__tier check (tier in ('extraction', 'storage', 'embed')),
      legacy_plan text constraint partners__legacy_plan
        check (legacy_plan in ('starter', 'professional', 'enterprise')),
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table api_keys (
      id uuid primary key default gen_random_uuid(),
      partner_id uuid not null constraint api_keys__partner_id references partners (id) on delete cascade,
      key_hash text not null constraint api_keys__key_hash unique,
      prefix text not null constraint api_keys__prefix unique,
      scopes text[] not null,
      created_at timestamptz not null default now(),
      revoked_at timestamptz
    )`.execute(db);
  await sql`create index api_keys__partner_id_idx on api_keys (partner_id)`.execute(db);
  await sql`
    create table tenants (
      id uuid primary key default gen_random_uuid(),
      partner_id uuid not null constraint tenants__partner_id references partners (id) on delete cascade,
      name text not null constraint tenants__name_length check (length(name) between 1 and 200),
      email text,
      is_default boolean not null default false,
      max_locations integer not null default 1 constraint tenants__max_locations check (max_locations >= 1),
      sso_provider text constraint tenants__sso_provider check (sso_provider in ('saml', 'oidc')),
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index tenants__partner_id_idx on tenants (partner_id)`.execute(db);
  await sql`create unique index tenants__one_default_per_partner on tenants (partner_id) where is_default`.execute(db);
  await sql`
    create table stores (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null constraint stores__tenant_id references tenants (id) on delete cascade,
      external_store_id text not null,
      name text,
      created_at timestamptz not null default now(),
      constraint stores__tenant_id_external_store_id unique (tenant_id, external_store_id)
    )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
