import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB, DocumentsTable } from './types.ts';

export type DocumentRow = Selectable<DocumentsTable>;

export async function insertDocument(
  db: Kysely<DB>,
  tenantId: string,
  doc: Omit<Insertable<DocumentsTable>, 'tenantId'>,
): Promise<DocumentRow> {
  return db.insertInto('documents').values({ ...doc, tenantId }).returningAll().executeTakeFirstOrThrow();
}

export async function setDocumentPageCount(db: Kysely<DB>, tenantId: string, documentId: string, pageCount: number): Promise<void> {
  await db.updateTable('documents').set({ pageCount }).where('tenantId', '=', tenantId).where('id', '=', documentId).execute();
}
