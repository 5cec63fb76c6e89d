import type { Kysely } from 'kysely';
import type { DB, SsoProvider, TenantRow } from './types.ts';

export async function insertTenant(
  db: Kysely<DB>,
  partnerId: string,
  tenant: { name: string; email?: string | null; isDefault?: boolean; maxLocations?: number; ssoProvider?: SsoProvider | null },
): Promise<TenantRow> {
  return db
    .insertInto('tenants')
    .values({ partnerId, ...tenant })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The partner's tenants, default tenant first. */
export async function listTenants(db: Kysely<DB>, partnerId: string): Promise<TenantRow[]> {
  return db
    .selectFrom('tenants')
    .selectAll()
    .where('partnerId', '=', partnerId)
    .orderBy('isDefault', 'desc')
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
}

export async function findDefaultTenant(db: Kysely<DB>, partnerId: string): Promise<TenantRow | undefined> {
  return db
    .selectFrom('tenants')
    .selectAll()
    .where('partnerId', '=', partnerId)
    .where('isDefault', '=', true)
    .executeTakeFirst();
}

/** A tenant only if it belongs to the partner: another partner's tenant is indistinguishable from none. */
export async function findPartnerTenant(
  db: Kysely<DB>,
  partnerId: string,
  tenantId: string,
): Promise<TenantRow | undefined> {
  return db
    .selectFrom('tenants')
    .selectAll()
    .where('partnerId', '=', partnerId)
    .where('id', '=', tenantId)
    .executeTakeFirst();
}

/** Locks the tenant row for the rest of the transaction (serialises changes bounded by the tenant's limits). */
export async function lockTenant(db: Kysely<DB>, tenantId: string): Promise<TenantRow | undefined> {
  return db.selectFrom('tenants').selectAll().where('id', '=', tenantId).forUpdate().executeTakeFirst();
}
