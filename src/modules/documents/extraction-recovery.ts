import type { Kysely } from 'kysely';
import { claimInterruptedInvoice, findUploadedDocument, forgetBlob, leftoverTemporaryBlobs, releaseLease } from './extraction-leases.queries.ts';
import type { InvoiceRow } from '../invoices/invoices.queries.ts';
import type { DB } from '../../platform/db/types.ts';
import type { ExtractionLease, LeaseKeeper } from './extraction-lease.ts';
import type { InvoiceExtraction, Recorded } from './invoice-extraction.ts';
import { toInvoice } from '../invoices/invoice.ts';
import { BlobNotFoundError, type BlobStore } from '../../platform/storage/index.ts';

/**
 * Extractions started per document, the upload's included: a document whose extraction took its process down this
 * many times is not tried again (it would take every restart down with it).
 */
export const MAX_EXTRACTION_ATTEMPTS = 2;

/** Records re-extracted at once: enough to keep a 2-core reader pool busy, few enough to leave uploads room. */
const RECOVERY_CONCURRENCY = 2;

export interface RecoveryOptions {
  /** Every `processing` record not owned by this instance is orphaned (the embedded database: its lock admits one process). */
  anyOwner: boolean;
  /** Sweep again at this interval (a database shared with other instances, which may die while this one runs). */
  everyMs?: number;
}

export interface RunningRecovery {
  /** Resolves once the start-up sweep has looked (the first claim); re-extraction goes on in the background. */
  ready: Promise<void>;
  /** No more claims; waits for the record in hand to finish. */
  stop(): Promise<void>;
}

/**
 * Finishes invoices a dead process left `processing` (DESIGN §9): each is claimed by exactly one instance, then
 * re-extracted from its stored bytes through the same step as an upload, or ended `failed` with the reason when its
 * bytes are gone or it was tried too often. Also deletes temporary blobs whose record ended just before a crash.
 */
export function createExtractionRecovery(
  db: Kysely<DB>,
  deps: { extraction: InvoiceExtraction; blobs: BlobStore; keeper: LeaseKeeper; lease: ExtractionLease; log: { warn(obj: object, msg: string): void } },
) {
  const { extraction, lease, log } = deps;

  async function recover(row: InvoiceRow): Promise<Recorded> {
    const invoice = toInvoice(row);
    const release = deps.keeper.hold(invoice.id);
    try {
      const doc = await findUploadedDocument(db, invoice.tenantId, invoice.documentId);
      const blob = doc?.blobKey ? { key: doc.blobKey, temporary: doc.blobTemporary } : null;
      if (row.extractionAttempts > MAX_EXTRACTION_ATTEMPTS) {
        const times = row.extractionAttempts - 1;
        return extraction.abandon(invoice, blob, `processing was interrupted ${times === 2 ? 'twice' : `${times} times`}; upload the document again`);
      }
      if (!doc || !blob) return extraction.abandon(invoice, blob, 'processing was interrupted and the file was not kept; upload it again');
      let bytes: Buffer;
      try {
        bytes = await deps.blobs.get(blob.key);
      } catch (err) {
        if (!(err instanceof BlobNotFoundError)) throw err;
        await forgetBlob(db, invoice.tenantId, invoice.documentId, blob.key);
        return extraction.abandon(invoice, null, 'processing was interrupted and the stored file is missing; upload it again');
      }
      log.warn({ invoiceId: invoice.id, attempt: row.extractionAttempts }, 'resuming an invoice interrupted by a crash');
      return await extraction.run({
        invoice,
        bytes,
        fileType: doc.fileType,
        blob,
        storeFirst: false,
        payer: { keyId: doc.apiKeyId, partner: { id: doc.partnerId, tier: doc.tier } },
        channel: doc.channel ?? 'graphql',
      });
    } catch (err) {
      // Extraction errors were recorded (failed) by run(); a record not ended (the blob store or the database is
      // down) is handed back for a later sweep or restart.
      log.warn({ err, invoiceId: invoice.id }, 'resuming an interrupted invoice failed');
      await releaseLease(db, lease.owner, invoice.id).catch(() => undefined);
      return [];
    } finally {
      release();
    }
  }

  /** Temporary blobs of records that ended right before a crash (between recording the end and deleting the blob). */
  async function dropLeftoverBlobs(): Promise<void> {
    for (const doc of await leftoverTemporaryBlobs(db, 100)) {
      await extraction.dropTemporaryBlob({ tenantId: doc.tenantId, documentId: doc.id }, { key: doc.blobKey, temporary: true });
    }
  }

  /**
   * Claims and finishes interrupted records until none is left (or `stopped()`), RECOVERY_CONCURRENCY at a time
   * (each claim takes one record); how many it claimed.
   */
  async function sweep(options: { anyOwner: boolean; stopped?: () => boolean; looked?: () => void }): Promise<number> {
    await dropLeftoverBlobs();
    let n = 0;
    const worker = async () => {
      for (;;) {
        if (options.stopped?.()) return;
        const row = await claimInterruptedInvoice(db, lease.owner, lease.ms, options.anyOwner);
        options.looked?.();
        if (!row) return;
        n++;
        await recover(row);
      }
    };
    await Promise.all(Array.from({ length: RECOVERY_CONCURRENCY }, worker));
    return n;
  }

  return {
    sweep,

    /** The start-up sweep, then (with `everyMs`) one sweep per interval; never two at once. */
    start(options: RecoveryOptions): RunningRecovery {
      let stopped = false;
      let timer: NodeJS.Timeout | undefined;
      let running: Promise<unknown> = Promise.resolve();
      let looked!: () => void;
      const ready = new Promise<void>((resolve) => (looked = resolve));
      const sweepOnce = (anyOwner: boolean) => {
        running = sweep({ anyOwner, stopped: () => stopped, looked })
          .catch((err) => log.warn({ err }, 'sweeping interrupted invoices failed; retrying at the next sweep'))
          .finally(() => {
            looked();
            if (!stopped && options.everyMs) timer = setTimeout(() => sweepOnce(false), options.everyMs).unref();
          });
      };
      sweepOnce(options.anyOwner);
      return {
        ready,
        async stop() {
          stopped = true;
          clearTimeout(timer);
          await running;
        },
      };
    },
  };
}
export type ExtractionRecovery = ReturnType<typeof createExtractionRecovery>;
