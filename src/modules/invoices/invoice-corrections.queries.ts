import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB, InvoiceCorrectionsTable } from '../../platform/db/types.ts';
import type { InvoiceRow } from './invoices.queries.ts';

export type InvoiceCorrectionRow = Selectable<InvoiceCorrectionsTable>;

/** The invoice, locked for the correcting transaction. */
export async function lockInvoice(db: Kysely<DB>, tenantId: string, invoiceId: string): Promise<InvoiceRow | undefined> {
  return db.selectFrom('invoices').selectAll().where('tenantId', '=', tenantId).where('id', '=', invoiceId).forUpdate().executeTakeFirst();
}

export async function insertCorrections(db: Kysely<DB>, rows: ReadonlyArray<Insertable<InvoiceCorrectionsTable>>): Promise<void> {
  if (rows.length)
    await db
      .insertInto('invoiceCorrections')
      .values([...rows])
      .execute();
}

/** Corrections of several invoices, oldest first (a DataLoader batch). */
export async function listCorrections(db: Kysely<DB>, tenantIds: readonly string[], invoiceIds: readonly string[]): Promise<InvoiceCorrectionRow[]> {
  if (tenantIds.length === 0 || invoiceIds.length === 0) return [];
  return db
    .selectFrom('invoiceCorrections')
    .selectAll()
    .where('tenantId', 'in', tenantIds)
    .where('invoiceId', 'in', invoiceIds)
    .orderBy('correctedAt')
    .orderBy('id')
    .execute();
}

/** Per vendor: corrected (invoice, field) pairs and the invoices they touch (a DataLoader batch). */
export async function correctionCounts(
  db: Kysely<DB>,
  tenantIds: readonly string[],
  vendorIds: readonly string[],
): Promise<Array<{ vendorId: string; fields: string; invoices: string }>> {
  if (tenantIds.length === 0 || vendorIds.length === 0) return [];
  return db
    .selectFrom('invoiceCorrections as c')
    .innerJoin('invoices as i', (j) => j.onRef('i.id', '=', 'c.invoiceId').onRef('i.tenantId', '=', 'c.tenantId'))
    .select((eb) => [
      'i.vendorId as vendorId',
      eb.fn
        .count<string>(eb.fn('concat', ['c.invoiceId', 'c.field']))
        .distinct()
        .as('fields'),
      eb.fn.count<string>('c.invoiceId').distinct().as('invoices'),
    ])
    .where('c.tenantId', 'in', tenantIds)
    .where('i.vendorId', 'in', vendorIds)
    .where('i.status', '=', 'processed')
    .groupBy('i.vendorId')
    .execute() as Promise<Array<{ vendorId: string; fields: string; invoices: string }>>;
}
