import type { Kysely, Selectable } from 'kysely';
import type { DB, StoresTable } from '../../platform/db/types.ts';

export type StoreRow = Selectable<StoresTable>;

/** Stores of several tenants at once (one query for a DataLoader batch). */
export async function listStoresOfTenants(db: Kysely<DB>, tenantIds: readonly string[]): Promise<StoreRow[]> {
  if (tenantIds.length === 0) return [];
  return db.selectFrom('stores').selectAll().where('tenantId', 'in', tenantIds).orderBy('createdAt').orderBy('externalStoreId').orderBy('id').execute();
}

/** The tenant's store with this id, if there is one. */
export async function findTenantStore(db: Kysely<DB>, tenantId: string, storeId: string): Promise<StoreRow | undefined> {
  return db.selectFrom('stores').selectAll().where('tenantId', '=', tenantId).where('id', '=', storeId).executeTakeFirst();
}

/** The tenant's store with this external id, if there is one. */
export async function findStoreByExternalId(db: Kysely<DB>, tenantId: string, externalStoreId: string): Promise<StoreRow | undefined> {
  return db.selectFrom('stores').selectAll().where('tenantId', '=', tenantId).where('externalStoreId', '=', externalStoreId).executeTakeFirst();
}

export async function countStores(db: Kysely<DB>, tenantId: string): Promise<number> {
  const row = await db
    .selectFrom('stores')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenantId', '=', tenantId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertStore(
  db: Kysely<DB>,
  store: { tenantId: string; externalStoreId: string; name: string | null; timezone: string },
): Promise<StoreRow> {
  return db.insertInto('stores').values(store).returningAll().executeTakeFirstOrThrow();
}

/** Stores by id among the given tenants (a DataLoader batch). */
export async function findStores(db: Kysely<DB>, tenantIds: readonly string[], ids: readonly string[]): Promise<StoreRow[]> {
  if (tenantIds.length === 0 || ids.length === 0) return [];
  return db.selectFrom('stores').selectAll().where('tenantId', 'in', tenantIds).where('id', 'in', ids).execute();
}
