import { type Kysely, sql } from 'kysely';
import type { DB } from '../../platform/db/types.ts';

export interface Vendor {
  id: string;
  tenantId: string;
  name: string;
  normalizedName: string;
  invoiceCount: number;
  totalSpent: number;
  createdAt: Date;
}

/** A tenant's vendors, biggest spend first, then by name (a stable order for offset paging). */
export async function listVendors(db: Kysely<DB>, tenantId: string, page: { limit: number; offset: number }): Promise<Vendor[]> {
  const rows = await db
    .selectFrom('vendors')
    .selectAll()
    .where('tenantId', '=', tenantId)
    .orderBy('totalSpent', 'desc')
    .orderBy('normalizedName')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map((r) => ({ ...r, totalSpent: Number(r.totalSpent) }));
}

/**
 * The tenant's vendor with this normalized name, created if new. `created` tells whether this call made it
 * (xmax = 0 only for a freshly inserted row).
 */
export async function upsertVendor(
  db: Kysely<DB>,
  tenantId: string,
  vendor: { name: string; normalizedName: string },
): Promise<{ id: string; created: boolean }> {
  const row = await db
    .insertInto('vendors')
    .values({ tenantId, name: vendor.name, normalizedName: vendor.normalizedName, totalSpent: 0 })
    .onConflict((oc) => oc.constraint('vendors__tenant_id_normalized_name').doUpdateSet({ normalizedName: vendor.normalizedName }))
    .returning(['id', sql<boolean>`(xmax = 0)`.as('created')])
    .executeTakeFirstOrThrow();
  return { id: row.id, created: row.created };
}

/** Adds one processed invoice to the vendor's running totals. */
export async function addVendorSpend(db: Kysely<DB>, tenantId: string, vendorId: string, total: number): Promise<void> {
  await db
    .updateTable('vendors')
    .set((eb) => ({ invoiceCount: eb('invoiceCount', '+', 1), totalSpent: sql`total_spent + ${total}` }))
    .where('tenantId', '=', tenantId)
    .where('id', '=', vendorId)
    .execute();
}

/** Vendors by id among the given tenants (a DataLoader batch). */
export async function findVendors(db: Kysely<DB>, tenantIds: readonly string[], ids: readonly string[]): Promise<Vendor[]> {
  if (tenantIds.length === 0 || ids.length === 0) return [];
  const rows = await db.selectFrom('vendors').selectAll().where('tenantId', 'in', tenantIds).where('id', 'in', ids).execute();
  return rows.map((r) => ({ ...r, totalSpent: Number(r.totalSpent) }));
}

/** Vendors of every tenant after `afterId` in id order (a batch of a full scan, e.g. reindexing). */
export async function scanVendors(db: Kysely<DB>, afterId: string | null, limit: number): Promise<Vendor[]> {
  let q = db.selectFrom('vendors').selectAll();
  if (afterId) q = q.where('id', '>', afterId);
  const rows = await q.orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ ...r, totalSpent: Number(r.totalSpent) }));
}

/** Moves a corrected invoice's spend: `invoices` (−1, 0, +1) and `amount` are added to the vendor's running totals. */
export async function adjustVendorSpend(db: Kysely<DB>, tenantId: string, vendorId: string, change: { invoices: number; amount: number }): Promise<void> {
  await db
    .updateTable('vendors')
    .set((eb) => ({ invoiceCount: eb('invoiceCount', '+', change.invoices), totalSpent: sql`total_spent + ${change.amount}` }))
    .where('tenantId', '=', tenantId)
    .where('id', '=', vendorId)
    .execute();
}
