import { type Kysely, sql } from 'kysely';
import type { DB } from '../../../platform/db/types.ts';

/** The tenant's connection; `config` is read as text (the camel-case plugin would rename its snake_case keys). */
export async function findTenantSso(db: Kysely<DB>, tenantId: string): Promise<{ provider: 'oidc' | 'saml'; config: unknown } | undefined> {
  const row = await db
    .selectFrom('tenantSso')
    .select(['provider', sql<string>`config::text`.as('config')])
    .where('tenantId', '=', tenantId)
    .executeTakeFirst();
  return row && { provider: row.provider, config: JSON.parse(row.config) };
}

/** Stores the tenant's connection (config as JSON text, so its keys are kept as they are). */
export async function upsertTenantSso(db: Kysely<DB>, tenantId: string, provider: 'oidc' | 'saml', config: unknown): Promise<void> {
  await sql`
    insert into tenant_sso (tenant_id, provider, config) values (${tenantId}, ${provider}, ${JSON.stringify(config)}::json)
    on conflict (tenant_id) do update set provider = excluded.provider, config = excluded.config, updated_at = now()`.execute(db);
}

export async function insertSsoLogin(
  db: Kysely<DB>,
  row: { state: string; tenantId: string; nonce: string | null; codeVerifier: string | null; expiresAt: Date },
): Promise<void> {
  await db.insertInto('ssoLogins').values(row).execute();
}

/** Takes a sign-in in progress (once): deleted as it is read; undefined when unknown or expired. */
export async function takeSsoLogin(db: Kysely<DB>, tenantId: string, state: string, at: Date) {
  return db.deleteFrom('ssoLogins').where('state', '=', state).where('tenantId', '=', tenantId).where('expiresAt', '>', at).returningAll().executeTakeFirst();
}

export async function findSsoLogin(db: Kysely<DB>, state: string, at: Date) {
  return db.selectFrom('ssoLogins').selectAll().where('state', '=', state).where('expiresAt', '>', at).executeTakeFirst();
}
