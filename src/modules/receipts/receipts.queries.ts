import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type { AfterId } from '../invoices/invoices.queries.ts';
import type { DB, ReceiptLineItemsTable, ReceiptsTable } from '../../platform/db/types.ts';

export type ReceiptRow = Selectable<ReceiptsTable>;
export type ReceiptLineItemRow = Selectable<ReceiptLineItemsTable>;

export async function insertReceipt(db: Kysely<DB>, tenantId: string, receipt: Omit<Insertable<ReceiptsTable>, 'tenantId'>): Promise<ReceiptRow> {
  return db
    .insertInto('receipts')
    .values({ ...receipt, tenantId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertReceiptLineItems(
  db: Kysely<DB>,
  tenantId: string,
  receiptId: string,
  items: ReadonlyArray<Omit<Insertable<ReceiptLineItemsTable>, 'tenantId' | 'receiptId' | 'position'>>,
): Promise<void> {
  if (items.length === 0) return;
  await db
    .insertInto('receiptLineItems')
    .values(items.map((item, position) => ({ ...item, tenantId, receiptId, position })))
    .execute();
}

/** Receipts by id, restricted to the given tenants (a DataLoader batch). */
export async function findReceipts(db: Kysely<DB>, tenantIds: readonly string[], ids: readonly string[]): Promise<ReceiptRow[]> {
  if (tenantIds.length === 0 || ids.length === 0) return [];
  return db.selectFrom('receipts').selectAll().where('tenantId', 'in', tenantIds).where('id', 'in', ids).execute();
}

export async function listReceiptLineItems(db: Kysely<DB>, tenantIds: readonly string[], receiptIds: readonly string[]): Promise<ReceiptLineItemRow[]> {
  if (tenantIds.length === 0 || receiptIds.length === 0) return [];
  return db
    .selectFrom('receiptLineItems')
    .selectAll()
    .where('tenantId', 'in', tenantIds)
    .where('receiptId', 'in', receiptIds)
    .orderBy('receiptId')
    .orderBy('position')
    .execute();
}

export interface ReceiptListFilter {
  includeDuplicates?: boolean | null;
  useType?: string | null;
  merchantName?: string | null;
  dateFrom?: string | null;
  dateTo?: string | null;
}

/** A page of receipts, newest first (keyset on created_at, id); `limit` rows at most. */
export async function pageReceipts(
  db: Kysely<DB>,
  tenantIds: readonly string[],
  filter: ReceiptListFilter,
  after: AfterId,
  limit: number,
): Promise<ReceiptRow[]> {
  if (tenantIds.length === 0) return [];
  let q = db.selectFrom('receipts').selectAll().where('tenantId', 'in', tenantIds);
  if (!filter.includeDuplicates) q = q.where('duplicateOf', 'is', null);
  if (filter.useType) q = q.where('useType', '=', filter.useType as 'business');
  if (filter.merchantName) q = q.where('merchantName', 'ilike', `%${escapeLike(filter.merchantName)}%`);
  if (filter.dateFrom) q = q.where('receiptDate', '>=', filter.dateFrom);
  if (filter.dateTo) q = q.where('receiptDate', '<=', filter.dateTo);
  // The cursor's row is looked up among the same tenants: another tenant's receipt positions nothing (an empty page).
  if (after) q = q.where(sql<boolean>`(created_at, id) < (select created_at, id from receipts where id = ${after} and tenant_id in (${sql.join(tenantIds)}))`);
  return q.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Receipts of every tenant but duplicates, after `afterId` in id order (a batch of a full scan, e.g. reindexing). */
export async function scanReceipts(db: Kysely<DB>, afterId: string | null, limit: number): Promise<ReceiptRow[]> {
  let q = db.selectFrom('receipts').selectAll().where('status', '=', 'processed').where('duplicateOf', 'is', null);
  if (afterId) q = q.where('id', '>', afterId);
  return q.orderBy('id').limit(limit).execute();
}

/**
 * The tenant's earliest original receipt read from the same bytes (a document with this sha256). Run under
 * lockTenantDocuments, so two uploads of one file cannot both be originals.
 */
export async function findDuplicateReceipt(db: Kysely<DB>, tenantId: string, sha256: string): Promise<{ id: string } | undefined> {
  return db
    .selectFrom('receipts as r')
    .innerJoin('documents as d', (j) => j.onRef('d.id', '=', 'r.documentId').onRef('d.tenantId', '=', 'r.tenantId'))
    .select('r.id')
    .where('r.tenantId', '=', tenantId)
    .where('d.sha256', '=', sha256)
    .where('r.status', '=', 'processed')
    .where('r.duplicateOf', 'is', null)
    .orderBy('r.createdAt')
    .orderBy('r.id')
    .limit(1)
    .executeTakeFirst();
}
