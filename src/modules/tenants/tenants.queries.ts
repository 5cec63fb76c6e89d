import type { Kysely } from 'kysely';
import type { DB, SsoProvider, TenantRow } from '../../platform/db/types.ts';

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
  return db.selectFrom('tenants').selectAll().where('partnerId', '=', partnerId).orderBy('isDefault', 'desc').orderBy('createdAt').orderBy('id').execute();
}

export async function findDefaultTenant(db: Kysely<DB>, partnerId: string): Promise<TenantRow | undefined> {
  return db.selectFrom('tenants').selectAll().where('partnerId', '=', partnerId).where('isDefault', '=', true).executeTakeFirst();
}

/** A tenant only if it belongs to the partner: another partner's tenant is indistinguishable from none. */
export async function findPartnerTenant(db: Kysely<DB>, partnerId: string, tenantId: string): Promise<TenantRow | undefined> {
  return db.selectFrom('tenants').selectAll().where('partnerId', '=', partnerId).where('id', '=', tenantId).executeTakeFirst();
}

/** Locks the tenant row for the rest of the transaction (serialises changes bounded by the tenant's limits). */
export async function lockTenant(db: Kysely<DB>, tenantId: string): Promise<TenantRow | undefined> {
  return db.selectFrom('tenants').selectAll().where('id', '=', tenantId).forUpdate().executeTakeFirst();
}

/** A page of the partner's tenants, newest first, after the tenant `afterId` (compared at full precision). */
export async function listTenantsPage(db: Kysely<DB>, partnerId: string, afterId: string | null, limit: number): Promise<TenantRow[]> {
  let q = db.selectFrom('tenants').selectAll().where('partnerId', '=', partnerId);
  if (afterId) {
    q = q.where(({ eb, refTuple, selectFrom }) =>
      eb(
        refTuple('createdAt', 'id'),
        '<',
        // Among the partner's own tenants: another partner's tenant positions nothing (an empty page).
        selectFrom('tenants as a').select(['a.createdAt', 'a.id']).where('a.id', '=', afterId).where('a.partnerId', '=', partnerId).$asTuple('createdAt', 'id'),
      ),
    );
  }
  return q.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export async function findTenant(db: Kysely<DB>, id: string): Promise<TenantRow | undefined> {
  return db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function renameTenant(db: Kysely<DB>, id: string, name: string): Promise<TenantRow | undefined> {
  return db.updateTable('tenants').set({ name }).where('id', '=', id).returningAll().executeTakeFirst();
}
