import { type Kysely, sql } from 'kysely';
import type { DB } from '../../platform/db/types.ts';

/** Processed invoices of one tenant (optionally one store) dated in [startDate, endDate]; duplicates never count. */
export interface SpendRange {
  tenantId: string;
  storeId: string | null;
  startDate: string;
  endDate: string;
}

// An invoice counts on its invoice date, or on the day it was uploaded (UTC) when none was read.
const spendDay = sql<string>`coalesce(i.invoice_date, (i.created_at at time zone 'UTC')::date)`;

function processedInvoices(db: Kysely<DB>, r: SpendRange) {
  let q = db
    .selectFrom('invoices as i')
    .where('i.tenantId', '=', r.tenantId)
    .where('i.status', '=', 'processed')
    .where('i.duplicateOf', 'is', null)
    .where(spendDay, '>=', r.startDate)
    .where(spendDay, '<=', r.endDate);
  if (r.storeId) q = q.where('i.storeId', '=', r.storeId);
  return q;
}

/** Line-item totals per cost category, biggest first (numeric sums as text). */
export async function spendByCategory(db: Kysely<DB>, r: SpendRange): Promise<Array<{ costCategory: string; total: string }>> {
  return processedInvoices(db, r)
    .innerJoin('invoiceLineItems as l', (j) => j.onRef('l.invoiceId', '=', 'i.id').onRef('l.tenantId', '=', 'i.tenantId'))
    .select(['l.costCategory', sql<string>`coalesce(sum(l.total), 0)`.as('total')])
    .groupBy('l.costCategory')
    .orderBy(sql`coalesce(sum(l.total), 0)`, 'desc')
    .orderBy('l.costCategory')
    .execute();
}

/** Invoice totals per vendor (by the vendor record, else the name as read), biggest first. */
export async function spendByVendor(
  db: Kysely<DB>,
  r: SpendRange,
): Promise<Array<{ vendorId: string | null; vendorName: string | null; total: string; invoiceCount: string }>> {
  return processedInvoices(db, r)
    .leftJoin('vendors as v', (j) => j.onRef('v.id', '=', 'i.vendorId').onRef('v.tenantId', '=', 'i.tenantId'))
    .select([
      'i.vendorId',
      sql<string | null>`coalesce(min(v.name), min(i.vendor_name))`.as('vendorName'),
      sql<string>`coalesce(sum(i.total), 0)`.as('total'),
      sql<string>`count(*)`.as('invoiceCount'),
    ])
    .groupBy(['i.vendorId', sql`case when i.vendor_id is null then i.vendor_name end`])
    .orderBy(sql`coalesce(sum(i.total), 0)`, 'desc')
    .orderBy(sql`coalesce(min(v.name), min(i.vendor_name))`)
    .execute();
}

/** Line-item totals per store, invoice day and cost category. Store null: invoices not assigned to a store. */
export async function costsByStoreDay(
  db: Kysely<DB>,
  r: SpendRange,
): Promise<Array<{ storeId: string | null; day: string; costCategory: string; total: string }>> {
  return processedInvoices(db, r)
    .innerJoin('invoiceLineItems as l', (j) => j.onRef('l.invoiceId', '=', 'i.id').onRef('l.tenantId', '=', 'i.tenantId'))
    .select(['i.storeId', spendDay.as('day'), 'l.costCategory', sql<string>`coalesce(sum(l.total), 0)`.as('total')])
    .groupBy(['i.storeId', spendDay, 'l.costCategory'])
    .orderBy(spendDay)
    .execute();
}

/** Processed invoices in the range. */
export async function countInvoices(db: Kysely<DB>, r: SpendRange): Promise<number> {
  const row = await processedInvoices(db, r)
    .select(sql<string>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
