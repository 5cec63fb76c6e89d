import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type { DB, InventoryCountsTable, InventoryItemsTable } from '../../platform/db/types.ts';

export type InventoryItemRow = Selectable<InventoryItemsTable>;
export type InventoryCountRow = Selectable<InventoryCountsTable>;

/** Items of a tenant: all of them, or those stocked at one store (the store's own plus tenant-wide ones). */
export async function listItems(db: Kysely<DB>, tenantId: string, filter: { storeId?: string | null; includeInactive?: boolean }): Promise<InventoryItemRow[]> {
  let q = db.selectFrom('inventoryItems').selectAll().where('tenantId', '=', tenantId);
  if (filter.storeId) q = q.where((eb) => eb.or([eb('storeId', 'is', null), eb('storeId', '=', filter.storeId!)]));
  if (!filter.includeInactive) q = q.where('active', '=', true);
  return q.orderBy('name').orderBy('id').execute();
}

export async function findItems(db: Kysely<DB>, tenantIds: readonly string[], ids: readonly string[]): Promise<InventoryItemRow[]> {
  if (tenantIds.length === 0 || ids.length === 0) return [];
  return db.selectFrom('inventoryItems').selectAll().where('tenantId', 'in', tenantIds).where('id', 'in', ids).execute();
}

export async function insertItem(db: Kysely<DB>, item: Insertable<InventoryItemsTable>): Promise<InventoryItemRow> {
  return db.insertInto('inventoryItems').values(item).returningAll().executeTakeFirstOrThrow();
}

export async function updateItem(db: Kysely<DB>, tenantId: string, id: string, patch: Updateable<InventoryItemsTable>): Promise<InventoryItemRow> {
  return db
    .updateTable('inventoryItems')
    .set({ ...patch, updatedAt: sql`now()` })
    .where('tenantId', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertCount(db: Kysely<DB>, count: Insertable<InventoryCountsTable>): Promise<InventoryCountRow> {
  return db.insertInto('inventoryCounts').values(count).returningAll().executeTakeFirstOrThrow();
}

/** The latest count of every item at a store (by counted_at, then by when it was recorded). */
export async function latestCountsAtStore(db: Kysely<DB>, storeId: string): Promise<InventoryCountRow[]> {
  return db
    .selectFrom('inventoryCounts')
    .selectAll()
    .distinctOn('itemId')
    .where('storeId', '=', storeId)
    .orderBy('itemId')
    .orderBy('countedAt', 'desc')
    .orderBy('createdAt', 'desc')
    .execute();
}

/**
 * One aggregate: active items stocked in the scope, the newest count, and the value of the latest count of
 * every (store, active item) at its item's default cost per unit. Each count's value is rounded to the cent, as
 * InventoryCount.value shows it, and the total is their exact sum: the total of a store is the sum of its rows, and
 * the tenant's the sum of its stores'.
 */
export async function inventorySummary(
  db: Kysely<DB>,
  tenantId: string,
  storeId: string | null,
): Promise<{ itemCount: number; lastCountedAt: Date | null; totalInventoryValue: number }> {
  const storeFilter = storeId === null ? sql`true` : sql`c.store_id = ${storeId}`;
  const itemFilter = storeId === null ? sql`true` : sql`(i.store_id is null or i.store_id = ${storeId})`;
  const { rows } = await sql<{ itemCount: string; lastCountedAt: Date | null; totalInventoryValue: string | null }>`
    with latest as (
      select distinct on (c.store_id, c.item_id) c.item_id, c.base_quantity, c.counted_at
      from inventory_counts c
      where c.tenant_id = ${tenantId} and ${storeFilter}
      order by c.store_id, c.item_id, c.counted_at desc, c.created_at desc
    )
    select
      (select count(*) from inventory_items i where i.tenant_id = ${tenantId} and i.active and ${itemFilter}) as item_count,
      (select max(counted_at) from latest) as last_counted_at,
      (select sum(round(l.base_quantity * i.default_cost, 2)) from latest l join inventory_items i on i.id = l.item_id and i.active) as total_inventory_value
  `.execute(db);
  const row = rows[0]!;
  return {
    itemCount: Number(row.itemCount),
    lastCountedAt: row.lastCountedAt,
    totalInventoryValue: Math.round(Number(row.totalInventoryValue ?? 0) * 100) / 100,
  };
}
