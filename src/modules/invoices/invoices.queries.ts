import { type Expression, type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type { DB, InvoiceLineItemsTable, InvoicesTable } from '../../platform/db/types.ts';

export type InvoiceRow = Selectable<InvoicesTable>;
export type InvoiceLineItemRow = Selectable<InvoiceLineItemsTable>;

export async function insertInvoice(
  db: Kysely<DB>,
  tenantId: string,
  invoice: { documentId: string; storeId: string | null; forced?: boolean; processingOwner?: string; leaseUntil?: Expression<Date> },
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
  includeDuplicates?: boolean | null;
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
  if (!filter.includeDuplicates) q = q.where('invoices.duplicateOf', 'is', null);
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
  // The cursor's row is looked up among the same tenants: another tenant's invoice positions nothing (an empty page).
  if (after) {
    q = q.where(
      sql<boolean>`(invoices.created_at, invoices.id) < (select created_at, id from invoices where id = ${after} and tenant_id in (${sql.join(tenantIds)}))`,
    );
  }
  return q.orderBy('invoices.createdAt', 'desc').orderBy('invoices.id', 'desc').limit(limit).execute();
}

/** Processed originals (not duplicates) of every tenant after `afterId` in id order (a batch of a full scan, e.g. reindexing). */
export async function scanProcessedInvoices(db: Kysely<DB>, afterId: string | null, limit: number): Promise<InvoiceRow[]> {
  let q = db.selectFrom('invoices').selectAll().where('status', '=', 'processed').where('duplicateOf', 'is', null);
  if (afterId) q = q.where('id', '>', afterId);
  return q.orderBy('id').limit(limit).execute();
}

/** An invoice number by its letters and digits, upper-cased: the expression of the index invoices__duplicate_match_idx. */
const numberKey = (column: ReturnType<typeof sql.ref>) => sql<string>`upper(regexp_replace(${column}, '[^0-9A-Za-z]', '', 'g'))`;

/** What a just-extracted invoice is compared by: its own row and document, the pages it covers, and its fields. */
export interface DuplicateCandidate {
  id: string;
  documentId: string;
  pages: number[];
  vendorNormalizedName: string | null;
  invoiceNumber: string | null;
  total: number | null;
}

/**
 * The tenant's earliest processed original this invoice repeats: one read from the same bytes (a document with the
 * same sha256, the same pages of it), else one of the same vendor (normalized name) with the same invoice number
 * (letters and digits, any case) and the same total. Two indexed lookups (documents by sha256, invoices by
 * invoices__duplicate_match_idx). Run under lockTenantDocuments, so two uploads of one document cannot both be
 * originals.
 */
export async function findDuplicateInvoice(
  db: Kysely<DB>,
  tenantId: string,
  c: DuplicateCandidate,
): Promise<{ id: string; vendorId: string | null } | undefined> {
  const originals = db
    .selectFrom('invoices as i')
    .select(['i.id', 'i.vendorId'])
    .where('i.tenantId', '=', tenantId)
    .where('i.status', '=', 'processed')
    .where('i.duplicateOf', 'is', null)
    .where('i.id', '<>', c.id)
    .orderBy('i.createdAt')
    .orderBy('i.id')
    .limit(1);
  const sameBytes = await originals
    .innerJoin('documents as d', (j) => j.onRef('d.id', '=', 'i.documentId').onRef('d.tenantId', '=', 'i.tenantId'))
    .where('d.id', '<>', c.documentId)
    .where('i.pages', '=', sql<number[]>`${c.pages}::integer[]`)
    .where('d.sha256', '=', (eb) => eb.selectFrom('documents').select('sha256').where('tenantId', '=', tenantId).where('id', '=', c.documentId))
    .executeTakeFirst();
  const number = c.invoiceNumber?.replace(/[^0-9A-Za-z]/g, '').toUpperCase() ?? '';
  if (sameBytes || !number || !c.vendorNormalizedName) return sameBytes;
  return originals
    .where('i.vendorId', '=', (eb) =>
      eb.selectFrom('vendors').select('id').where('tenantId', '=', tenantId).where('normalizedName', '=', c.vendorNormalizedName!),
    )
    .where(numberKey(sql.ref('i.invoice_number')), '=', number)
    .where(sql<boolean>`i.total is not distinct from ${c.total}::numeric`)
    .executeTakeFirst();
}
