import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { InvoiceRow } from '../invoices/invoices.queries.ts';
import type { DB, DocumentsTable, Tier, UsageChannel } from '../../platform/db/types.ts';

// Leases on `processing` invoices (who is extracting them, until when) and the temporary blobs they read.
// Times come from the database's clock, so instances with skewed clocks agree on when a lease ran out.

/** now() + `ms`, as the database computes it. */
export const leaseExpiry = (ms: number): RawBuilder<Date> => sql<Date>`now() + make_interval(secs => ${ms / 1000})`;

/** Locks the invoice if it is still `processing` under `owner`'s lease (false: it ended, or another instance took it). */
export async function lockOwnedProcessing(db: Kysely<DB>, tenantId: string, invoiceId: string, owner: string): Promise<boolean> {
  const row = await db
    .selectFrom('invoices')
    .select('id')
    .where('tenantId', '=', tenantId)
    .where('id', '=', invoiceId)
    .where('status', '=', 'processing')
    .where('processingOwner', '=', owner)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

/** Pushes back the expiry of `owner`'s leases on these invoices (one statement for all it is extracting). */
export async function renewLeases(db: Kysely<DB>, owner: string, invoiceIds: readonly string[], ms: number): Promise<number> {
  if (invoiceIds.length === 0) return 0;
  const res = await db
    .updateTable('invoices')
    .set({ leaseUntil: leaseExpiry(ms) })
    .where('id', 'in', invoiceIds)
    .where('status', '=', 'processing')
    .where('processingOwner', '=', owner)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/**
 * Claims one `processing` invoice that nobody is extracting any more: its lease ran out, or, with `anyOwner` (the
 * embedded database, whose lock guarantees every other owner is dead), any owner but `owner`. A record without a
 * lease was opened by a version without leases: during a rolling deploy its instance may still be extracting it, so
 * it is claimed once it is older than any extraction (uploads time out at 60 s). Counts the attempt. SKIP LOCKED:
 * of several instances sweeping at once, exactly one gets each record.
 */
export async function claimInterruptedInvoice(db: Kysely<DB>, owner: string, ms: number, anyOwner: boolean): Promise<InvoiceRow | undefined> {
  const due = db
    .selectFrom('invoices')
    .select('id')
    .where('status', '=', 'processing')
    .where('processingOwner', 'is distinct from', owner)
    .$if(!anyOwner, (q) =>
      q.where((eb) =>
        eb.or([eb('leaseUntil', '<', sql<Date>`now()`), eb.and([eb('leaseUntil', 'is', null), eb('createdAt', '<', sql<Date>`now() - interval '5 minutes'`)])]),
      ),
    )
    .orderBy('createdAt')
    .limit(1)
    .forUpdate()
    .skipLocked();
  return db
    .updateTable('invoices')
    .set((eb) => ({ processingOwner: owner, leaseUntil: leaseExpiry(ms), extractionAttempts: eb('extractionAttempts', '+', 1) }))
    .where('id', 'in', due)
    .returningAll()
    .executeTakeFirst();
}

/** Gives a record back unfinished (this instance could not go on with it): the next sweep may claim it at once. */
export async function releaseLease(db: Kysely<DB>, owner: string, invoiceId: string): Promise<void> {
  await db
    .updateTable('invoices')
    .set({ processingOwner: null, leaseUntil: sql<Date>`now()` })
    .where('id', '=', invoiceId)
    .where('status', '=', 'processing')
    .where('processingOwner', '=', owner)
    .execute();
}

export interface UploadedDocument {
  id: string;
  tenantId: string;
  fileType: DocumentsTable['fileType'];
  blobKey: string | null;
  blobTemporary: boolean;
  apiKeyId: string | null;
  channel: UsageChannel | null;
  partnerId: string;
  tier: Tier;
}

/** The uploaded document of an invoice and who pays for it (the tenant's partner, at its tier). */
export async function findUploadedDocument(db: Kysely<DB>, tenantId: string, documentId: string): Promise<UploadedDocument | undefined> {
  return db
    .selectFrom('documents')
    .innerJoin('tenants', 'tenants.id', 'documents.tenantId')
    .innerJoin('partners', 'partners.id', 'tenants.partnerId')
    .select([
      'documents.id',
      'documents.tenantId',
      'documents.fileType',
      'documents.blobKey',
      'documents.blobTemporary',
      'documents.apiKeyId',
      'documents.channel',
      'tenants.partnerId',
      'partners.tier',
    ])
    .where('documents.tenantId', '=', tenantId)
    .where('documents.id', '=', documentId)
    .executeTakeFirst();
}

/** The document no longer points at a blob (a temporary copy was deleted, or the bytes never got stored). */
export async function forgetBlob(db: Kysely<DB>, tenantId: string, documentId: string, blobKey: string): Promise<void> {
  await db
    .updateTable('documents')
    .set({ blobKey: null })
    .where('tenantId', '=', tenantId)
    .where('id', '=', documentId)
    .where('blobKey', '=', blobKey)
    .execute();
}

/** Temporary blobs still referenced although no invoice of their document is processing (a crash after it ended). */
export async function leftoverTemporaryBlobs(db: Kysely<DB>, limit: number): Promise<Array<{ id: string; tenantId: string; blobKey: string }>> {
  const rows = await db
    .selectFrom('documents')
    .select(['id', 'tenantId', 'blobKey'])
    .where('blobTemporary', '=', true)
    .where('blobKey', 'is not', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('invoices').select('invoices.id').whereRef('invoices.documentId', '=', 'documents.id').where('invoices.status', '=', 'processing'),
        ),
      ),
    )
    .orderBy('createdAt')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, blobKey: r.blobKey! }));
}
