import { type Kysely, sql } from 'kysely';

// Frozen. A tenant's single sign-on connection (set up on its onboarding page) and the short-lived state of
// sign-ins in progress (OIDC state, nonce and PKCE verifier; SAML request id), so any instance can finish them.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table tenant_sso (
      tenant_id uuid primary key constraint tenant_sso__tenant_id references tenants (id) on delete cascade,
      provider text not null constraint tenant_sso__provider check (provider in ('oidc', 'saml')),
      config json not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table sso_logins (
      state text primary key,
      tenant_id uuid not null constraint sso_logins__tenant_id references tenants (id) on delete cascade,
      nonce text,
      code_verifier text,
      expires_at timestamptz not null
    )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
