import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type { DB, DocumentsTable } from '../../platform/db/types.ts';

export type DocumentRow = Selectable<DocumentsTable>;

export async function insertDocument(db: Kysely<DB>, tenantId: string, doc: Omit<Insertable<DocumentsTable>, 'tenantId'>): Promise<DocumentRow> {
  return db
    .insertInto('documents')
    .values({ ...doc, tenantId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Takes the tenant's row lock that orders duplicate checks (issue 18): within one recording transaction, the check
 * for an earlier copy and the write of the new record happen before any other upload of the tenant can check.
 * `for no key update` leaves inserts referencing the tenant (their foreign-key checks) free to proceed.
 */
export async function lockTenantDocuments(db: Kysely<DB>, tenantId: string): Promise<void> {
  await db.selectFrom('tenants').select('id').where('id', '=', tenantId).forNoKeyUpdate().executeTakeFirst();
}

/** What reading found out about a stored document: how many pages it has, and what was left unread. */
export async function setDocumentReading(db: Kysely<DB>, tenantId: string, documentId: string, reading: { pageCount: number; notes: string[] }): Promise<void> {
  await db.updateTable('documents').set(reading).where('tenantId', '=', tenantId).where('id', '=', documentId).execute();
}

/** The notes of the documents behind invoices or receipts (by their ids), among the given tenants (a DataLoader batch). */
export async function findDocumentNotes(
  db: Kysely<DB>,
  owner: 'invoices' | 'receipts',
  tenantIds: readonly string[],
  ownerIds: readonly string[],
): Promise<Array<{ id: string; notes: string[] }>> {
  if (tenantIds.length === 0 || ownerIds.length === 0) return [];
  const { rows } = await sql<{ id: string; notes: string[] }>`
    select o.id, d.notes from ${sql.table(owner)} o join documents d on d.id = o.document_id and d.tenant_id = o.tenant_id
    where o.tenant_id in (${sql.join(tenantIds)}) and o.id in (${sql.join(ownerIds)})`.execute(db);
  return rows;
}

/** Documents by id among the given tenants (a DataLoader batch). */
export async function findDocuments(db: Kysely<DB>, tenantIds: readonly string[], ids: readonly string[]): Promise<DocumentRow[]> {
  if (tenantIds.length === 0 || ids.length === 0) return [];
  return db.selectFrom('documents').selectAll().where('tenantId', 'in', tenantIds).where('id', 'in', ids).execute();
}

/** The server's signing key of this name: created once by whichever instance asks first, then shared by all. */
export async function signingKey(db: Kysely<DB>, name: string, fresh: Buffer): Promise<Buffer> {
  await db
    .insertInto('signingKeys')
    .values({ name, secret: fresh })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('signingKeys').select('secret').where('name', '=', name).executeTakeFirstOrThrow();
  return Buffer.from(row.secret);
}
