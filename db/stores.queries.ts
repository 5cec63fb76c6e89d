import type { Kysely, Selectable } from 'kysely';
import type { DB, StoresTable } from './types.ts';

export type StoreRow = Selectable<StoresTable>;

/** Stores of several tenants at once (one query for a DataLoader batch). */
export async function listStoresOfTenants(db: Kysely<DB>, tenantIds: readonly string[]): Promise<StoreRow[]> {
  if (tenantIds.length === 0) return [];
  return db
    .selectFrom('stores')
    .selectAll()
    .where('tenantId', 'in', tenantIds)
    .orderBy('createdAt')
    .orderBy('externalStoreId')
    .orderBy('id')
    .execute();
}

/** The tenant's store with this id, if there is one. */
export async function findTenantStore(db: Kysely<DB>, tenantId: string, storeId: string): Promise<StoreRow | undefined> {
  return db.selectFrom('stores').selectAll().where('tenantId', '=', tenantId).where('id', '=', storeId).executeTakeFirst();
}
