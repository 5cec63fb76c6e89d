import type { Kysely } from 'kysely';
import { forgetBlob } from './extraction-leases.queries.ts';
import type { DB } from '../../platform/db/types.ts';
import { type LeaseKeeper, LeaseLostError } from './extraction-lease.ts';
import { type DocumentExtractor, ExtractionServiceError, MIME_TYPES } from '../../extraction/extractor.ts';
import { type FileType, UnreadableDocumentError } from '../../extraction/types.ts';
import type { InvoicesService } from '../invoices/invoices.service.ts';
import type { Invoice, LineItem } from '../invoices/invoice.ts';
import type { Channel } from '../../platform/rate-limit/policy.ts';
import type { SearchService } from '../search/search.service.ts';
import type { BlobStore } from '../../platform/storage/index.ts';
import type { Payer, UsageService } from '../usage/usage.service.ts';

/** An invoice opened `processing` (by an upload, or claimed after a crash) and what it takes to finish it. */
export interface StartedInvoice {
  invoice: Invoice;
  bytes: Uint8Array;
  fileType: FileType;
  /** Where the bytes are kept; `temporary`: deleted (and forgotten by the document) once the record ends. */
  blob: { key: string; temporary: boolean } | null;
  /** The bytes are still to be written to `blob` (an upload), or are read from it already (a recovery). */
  storeFirst: boolean;
  payer: Payer;
  channel: Channel;
}

export type Recorded = Array<Invoice & { lineItems?: LineItem[] }>;

const INTERNAL = 'an internal error stopped processing; the upload can be retried';

type Log = { warn(obj: object, msg: string): void; error?(obj: object, msg: string): void };

/**
 * The one way a started invoice is extracted and recorded, for uploads and for records recovered after a crash:
 * store the bytes (uploads), extract them under a renewed lease, record `processed` (events, vendor) or `failed`
 * with the reason, meter it once, index it for search, and drop a temporary blob once the record has ended.
 * Nothing is left in `processing` by an error here: the record says it failed (a thrown error is rethrown after).
 */
export function createInvoiceExtraction(
  db: Kysely<DB>,
  deps: {
    extractor: DocumentExtractor;
    blobs: BlobStore;
    invoices: InvoicesService;
    search: SearchService;
    usage: UsageService;
    keeper: LeaseKeeper;
    log: Log;
  },
) {
  const { invoices, log } = deps;

  /** Deletes a temporary blob of an ended record, then the document's pointer to it (a crash in between: swept). */
  async function dropTemporaryBlob(doc: { tenantId: string; documentId: string }, blob: StartedInvoice['blob']): Promise<void> {
    if (!blob?.temporary) return;
    const { tenantId, documentId } = doc;
    try {
      await deps.blobs.delete(blob.key);
      await forgetBlob(db, tenantId, documentId, blob.key);
    } catch (err) {
      log.warn({ err, documentId }, 'deleting a temporary blob failed; the start-up sweep deletes it');
    }
  }

  /** Writes an upload's bytes where its document points; if that fails, the document points nowhere. */
  async function store(job: StartedInvoice, key: string): Promise<void> {
    try {
      await deps.blobs.put(key, job.bytes, MIME_TYPES[job.fileType]);
    } catch (err) {
      await forgetBlob(db, job.invoice.tenantId, job.invoice.documentId, key).catch(() => undefined);
      throw err;
    }
  }

  async function extractAndRecord(job: StartedInvoice): Promise<Recorded> {
    const started = job.invoice;
    let read;
    try {
      read = await deps.extractor.extractInvoices(job.bytes, job.fileType, { lane: started.tenantId });
    } catch (err) {
      if (err instanceof UnreadableDocumentError) return [await invoices.fail(started, err.message)];
      if (err instanceof ExtractionServiceError) {
        log.warn({ err, cause: err.cause }, 'invoice extraction failed in the extraction service');
        return [await invoices.fail(started, err.message)];
      }
      throw err;
    }
    await invoices.recordReading(started, { pageCount: read.pageCount, notes: read.notes });
    if (read.invoices.length === 0) return [await invoices.fail(started, 'no invoice could be found in the document')];
    const recorded = await invoices.complete(started, read.invoices);
    // A document whose every invoice repeats one the tenant has is not charged again (DESIGN §9 "Duplicate documents").
    if (recorded.some((r) => !r.duplicateOf)) {
      await meterQuietly(deps.usage, log, job.payer, {
        tenantId: started.tenantId,
        documentId: started.documentId,
        kind: 'invoice',
        pages: read.pageCount,
        channel: job.channel,
      });
    }
    await indexQuietly(log, 'invoices', () => deps.search.indexUploadedInvoices(recorded));
    return recorded;
  }

  /** Another instance claimed the record after our lease ran out: it records the outcome; we report what is there. */
  async function current(invoice: Invoice): Promise<Recorded> {
    log.warn({ invoiceId: invoice.id }, 'extraction lease lost: another instance finishes this invoice');
    const [row] = await invoices.byIds([invoice.tenantId], [invoice.id]);
    return row ? [row] : [];
  }

  return {
    async run(job: StartedInvoice): Promise<Recorded> {
      const release = deps.keeper.hold(job.invoice.id);
      try {
        if (job.storeFirst && job.blob) await store(job, job.blob.key);
        const recorded = await extractAndRecord(job);
        await dropTemporaryBlob(job.invoice, job.blob);
        return recorded;
      } catch (err) {
        if (err instanceof LeaseLostError) return current(job.invoice);
        // The caller gets the error (a 500 with a correlation id); the record says it failed.
        const failed = await invoices.fail(job.invoice, INTERNAL).catch(() => undefined);
        if (failed) await dropTemporaryBlob(job.invoice, job.blob);
        throw err;
      } finally {
        release();
      }
    },

    /** Ends a claimed record `failed` without extracting it (its file is gone, or it was tried too often). */
    async abandon(invoice: Invoice, blob: StartedInvoice['blob'], reason: string): Promise<Recorded> {
      try {
        const failed = await invoices.fail(invoice, reason);
        await dropTemporaryBlob(invoice, blob);
        return [failed];
      } catch (err) {
        if (err instanceof LeaseLostError) return current(invoice);
        throw err;
      }
    },

    dropTemporaryBlob,
  };
}
export type InvoiceExtraction = ReturnType<typeof createInvoiceExtraction>;

/** Every processed document is metered once; a metering failure is logged loudly but does not undo the upload. */
export async function meterQuietly(usage: UsageService, log: Log, payer: Payer, doc: Parameters<UsageService['record']>[1]): Promise<void> {
  try {
    await usage.record(payer, doc);
  } catch (err) {
    (log.error ?? log.warn).call(log, { err, documentId: doc.documentId }, 'metering a processed document failed');
  }
}

/**
 * Makes new records searchable. A failed index write (e.g. a remote embedder down) does not fail the upload:
 * the record is stored, the failure is logged, and `npm run admin -- reindex` catches up.
 */
export async function indexQuietly(log: Log, what: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    log.warn({ err }, `search indexing of ${what} failed; run \`npm run admin -- reindex\``);
  }
}
