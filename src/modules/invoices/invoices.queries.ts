import { type Expression, type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type { DB, InvoiceLineItemsTable, InvoicesTable } from '../../platform/db/types.ts';

export type InvoiceRow = Selectable<InvoicesTable>;
export type InvoiceLineItemRow = Selectable<InvoiceLineItemsTable>;

export async function insertInvoice(
  db: Kysely<DB>,
  tenantId: string,
  invoice: { documentId: string; storeId: string | null; processingOwner?: string; leaseUntil?: Expression<Date> },
): Promise<InvoiceRow> {
  return db
    .insertInto('invoices')
    .values({ ...invoice, tenantId, fieldConfidences: '{}' })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateInvoice(db: Kysely<DB>, tenantId: string, invoiceId: string, changes: Updateable<InvoicesTable>): Promise<InvoiceRow> {
  return db.updateTable('invoices').set(changes).where('tenantId', '=', tenantId).where('id', '=', invoiceId).returningAll().executeTakeFirstOrThrow();
}

export async function insertInvoiceLineItems(
  db: Kysely<DB>,
  tenantId: string,
  invoiceId: string,
  items: ReadonlyArray<Omit<Insertable<InvoiceLineItemsTable>, 'tenantId' | 'invoiceId' | 'position'>>,
): Promise<void> {
  if (items.length === 0) return;
  await db
    .insertInto('invoiceLineItems')
    .values(items.map((item, position) => ({ ...item, tenantId, invoiceId, position })))
    .execute();
}

/** Invoices by id, restricted to the given tenants (a DataLoader batch). */
export async function findInvoices(db: Kysely<DB>, tenantIds: readonly string[], ids: readonly string[]): Promise<InvoiceRow[]> {
  if (tenantIds.length === 0 || ids.length === 0) return [];
  return db.selectFrom('invoices').selectAll().where('tenantId', 'in', tenantIds).where('id', 'in', ids).execute();
}

/** Line items of several invoices, in document order (a DataLoader batch). */
export async function listInvoiceLineItems(db: Kysely<DB>, tenantIds: readonly string[], invoiceIds: readonly string[]): Promise<InvoiceLineItemRow[]> {
  if (tenantIds.length === 0 || invoiceIds.length === 0) return [];
  return db
    .selectFrom('invoiceLineItems')
    .selectAll()
    .where('tenantId', 'in', tenantIds)
    .where('invoiceId', 'in', invoiceIds)
    .orderBy('invoiceId')
    .orderBy('position')
    .execute();
}

/** A newest-first page starts after this row (created_at desc, id desc, compared at full precision in SQL). */
export type AfterId = string | null;

export interface InvoiceListFilter {
  status?: string | null;
  vendorId?: string | null;
  vendorNormalizedName?: string | null;
  dateFrom?: string | null;
  dateTo?: string | null;
  storeId?: string | null;
}

/** A page of invoices, newest first (keyset on created_at, id); `limit` rows at most. */
export async function pageInvoices(
  db: Kysely<DB>,
  tenantIds: readonly string[],
  filter: InvoiceListFilter,
  after: AfterId,
  limit: number,
): Promise<InvoiceRow[]> {
  if (tenantIds.length === 0) return [];
  let q = db.selectFrom('invoices').selectAll('invoices').where('invoices.tenantId', 'in', tenantIds);
  if (filter.status) q = q.where('invoices.status', '=', filter.status as 'processed');
  if (filter.vendorId) q = q.where('invoices.vendorId', '=', filter.vendorId);
  if (filter.vendorNormalizedName) {
    const name = filter.vendorNormalizedName;
    q = q.where((eb) =>
      eb.exists(eb.selectFrom('vendors').select('vendors.id').whereRef('vendors.id', '=', 'invoices.vendorId').where('vendors.normalizedName', '=', name)),
    );
  }
  if (filter.dateFrom) q = q.where('invoices.invoiceDate', '>=', filter.dateFrom);
  if (filter.dateTo) q = q.where('invoices.invoiceDate', '<=', filter.dateTo);
  if (filter.storeId) q = q.where('invoices.storeId', '=', filter.storeId);
  if (after) q = q.where(sql<boolean>`(invoices.created_at, invoices.id) < (select created_at, id from invoices where id = ${after})`);
  return q.orderBy('invoices.createdAt', 'desc').orderBy('invoices.id', 'desc').limit(limit).execute();
}

/** Processed invoices of every tenant after `afterId` in id order (a batch of a full scan, e.g. reindexing). */
export async function scanProcessedInvoices(db: Kysely<DB>, afterId: string | null, limit: number): Promise<InvoiceRow[]> {
  let q = db.selectFrom('invoices').selectAll().where('status', '=', 'processed');
  if (afterId) q = q.where('id', '>', afterId);
  return q.orderBy('id').limit(limit).execute();
}
