import { createHash, randomUUID } from 'node:crypto';
import type { Principal } from './auth/authenticate.ts';
import { InvalidInput, Upstream } from './errors.ts';
import { type DocumentExtractor, ExtractionServiceError, MIME_TYPES as MIME } from './extraction/extractor.ts';
import { type DocumentKind, type FileType, UnreadableDocumentError, UnsupportedFileError } from './extraction/types.ts';
import { sniffFileType } from './extraction/sniff.ts';
import type { UploadedFile } from './http/multipart.ts';
import type { Invoice, InvoicesService, LineItem, NewDocument } from './invoices.service.ts';
import type { Receipt, ReceiptsService, UseType } from './receipts.service.ts';
import type { SearchService } from './search.service.ts';
import type { BlobStore } from './storage/index.ts';
import type { TenantsService } from './tenants.service.ts';
import type { Channel } from './rate-limit/policy.ts';
import type { UsageService } from './usage.service.ts';

export interface UploadOptions {
  file: UploadedFile;
  tenantId?: string | null;
  /** Keep the file in the account's archive; default: kept on the Extraction + Storage and Platform Embed tiers. */
  keepFile?: boolean | null;
  /** How the request came in (metered with the document; default graphql). */
  channel?: Channel;
}

/**
 * Uploads, end to end and synchronously (access is checked by the resolver): check the input, sniff the bytes, keep the file when the tier
 * (or the caller) asks for it, extract its fields (the configured provider: local engine or Document AI), and record
 * the result with its events. Files that are not an accepted type are 400 before anything is recorded; an invoice
 * whose content cannot be read (corrupt, encrypted, no text), or that the extraction service failed on, is recorded
 * `failed` with the reason.
 */
export function createUploadsService(deps: {
  extractor: DocumentExtractor;
  blobs: BlobStore;
  tenants: TenantsService;
  invoices: InvoicesService;
  receipts: ReceiptsService;
  search: SearchService;
  usage: UsageService;
  log: { warn(obj: object, msg: string): void; error?(obj: object, msg: string): void };
}) {
  /** Every processed document is metered once; a metering failure is logged loudly but does not undo the upload. */
  async function meter(principal: Principal, doc: Parameters<UsageService['record']>[1]): Promise<void> {
    try {
      await deps.usage.record(principal, doc);
    } catch (err) {
      (deps.log.error ?? deps.log.warn).call(deps.log, { err, documentId: doc.documentId }, 'metering a processed document failed');
    }
  }

  /**
   * Makes new records searchable. A failed index write (e.g. a remote embedder down) does not fail the upload:
   * the record is stored, the failure is logged, and `npm run admin -- reindex` catches up.
   */
  async function indexQuietly(what: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (err) {
      deps.log.warn({ err }, `search indexing of ${what} failed; run \`npm run admin -- reindex\``);
    }
  }

  /** Sniffs the bytes and, when the file is to be kept, stores it; returns the document row's contents. */
  async function intake(principal: Principal, tenantId: string, kind: DocumentKind, options: UploadOptions): Promise<NewDocument> {
    const { file } = options;
    let fileType: FileType;
    try {
      fileType = sniffFileType(file.bytes);
    } catch (err) {
      if (err instanceof UnsupportedFileError) throw InvalidInput.field('file', err.message);
      throw err;
    }
    const keep = options.keepFile ?? principal.partner.tier !== 'extraction';
    const blobKey = keep ? `${tenantId}/${kind}s/${randomUUID()}.${fileType === 'jpeg' ? 'jpg' : fileType}` : null;
    if (blobKey) await deps.blobs.put(blobKey, file.bytes, MIME[fileType]);
    return {
      fileType,
      mimeType: MIME[fileType],
      sizeBytes: file.bytes.length,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
      originalName: file.filename?.slice(0, 255) ?? null,
      blobKey,
      pageCount: null,
    };
  }

  return {
    async uploadInvoice(
      principal: Principal,
      options: UploadOptions & { storeId?: string | null },
    ): Promise<Array<Invoice & { lineItems?: LineItem[] }>> {
      const tenantId = await deps.tenants.resolve(principal, options.tenantId);
      if (options.storeId != null) await deps.tenants.requireStore(tenantId, options.storeId);
      const document = await intake(principal, tenantId, 'invoice', options);
      const started = await deps.invoices.start(tenantId, document, options.storeId ?? null);
      try {
        const { pageCount, invoices: extracted, notes } = await deps.extractor.extractInvoices(options.file.bytes, document.fileType, { lane: tenantId });
        await deps.invoices.recordReading(started, { pageCount, notes });
        if (extracted.length === 0) return [await deps.invoices.fail(started, 'no invoice could be found in the document')];
        const invoices = await deps.invoices.complete(started, extracted);
        await meter(principal, { tenantId, documentId: started.documentId, kind: 'invoice', pages: pageCount, channel: options.channel ?? 'graphql' });
        await indexQuietly('invoices', () => deps.search.indexUploadedInvoices(invoices));
        return invoices;
      } catch (err) {
        if (err instanceof UnreadableDocumentError) return [await deps.invoices.fail(started, err.message)];
        if (err instanceof ExtractionServiceError) {
          deps.log.warn({ err, cause: err.cause }, 'invoice extraction failed in the extraction service');
          return [await deps.invoices.fail(started, err.message)];
        }
        // Nothing is left in `processing`: the record says it failed, the caller gets a 500 with a correlation id.
        await deps.invoices.fail(started, 'an internal error stopped processing; the upload can be retried').catch(() => undefined);
        throw err;
      }
    },

    async uploadReceipt(principal: Principal, options: UploadOptions & { useType?: UseType | null }): Promise<Receipt & { lineItems: LineItem[] }> {
      const tenantId = await deps.tenants.resolve(principal, options.tenantId);
      let document: NewDocument | undefined;
      try {
        document = await intake(principal, tenantId, 'receipt', options);
        const { pageCount, receipt: fields, notes } = await deps.extractor.extractReceipt(options.file.bytes, document.fileType, { lane: tenantId });
        const receipt = await deps.receipts.record(tenantId, { ...document, pageCount, notes }, fields, options.useType ?? 'business');
        await meter(principal, { tenantId, documentId: receipt.documentId, kind: 'receipt', pages: pageCount, channel: options.channel ?? 'graphql' });
        await indexQuietly('a receipt', () => deps.search.indexReceipts([receipt]));
        return receipt;
      } catch (err) {
        if (document?.blobKey) await deps.blobs.delete(document.blobKey).catch(() => undefined);
        if (err instanceof UnreadableDocumentError) throw InvalidInput.field('file', `could not be read as a receipt: ${err.message}`);
        if (err instanceof ExtractionServiceError) {
          deps.log.warn({ err, cause: err.cause }, 'receipt extraction failed in the extraction service');
          throw new Upstream(err.message);
        }
        throw err;
      }
    },
  };
}
export type UploadsService = ReturnType<typeof createUploadsService>;
