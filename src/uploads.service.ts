import { createHash, randomUUID } from 'node:crypto';
import type { Principal } from './auth/authenticate.ts';
import { InvalidInput } from './errors.ts';
import type { DocumentReader } from './extraction/reader.ts';
import { extractInvoiceFields } from './extraction/fields/invoice.ts';
import { extractReceiptFields } from './extraction/fields/receipt.ts';
import { type DocumentKind, type FileType, type PageText, UnreadableDocumentError, UnsupportedFileError } from './extraction/types.ts';
import { sniffFileType } from './extraction/sniff.ts';
import type { UploadedFile } from './http/multipart.ts';
import type { Invoice, InvoicesService, LineItem, NewDocument } from './invoices.service.ts';
import type { Receipt, ReceiptsService, UseType } from './receipts.service.ts';
import type { SearchService } from './search.service.ts';
import type { BlobStore } from './storage/index.ts';
import type { TenantsService } from './tenants.service.ts';

const MIME: Record<FileType, string> = { pdf: 'application/pdf', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

export interface UploadOptions {
  file: UploadedFile;
  tenantId?: string | null;
  /** Keep the file in the account's archive; default: kept on the Extraction + Storage and Platform Embed tiers. */
  keepFile?: boolean | null;
}

/**
 * Uploads, end to end and synchronously (access is checked by the resolver): check the input, sniff the bytes, keep the file when the tier
 * (or the caller) asks for it, read it in the worker pool, understand it, and record the result with its events.
 * Files that are not an accepted type are 400 before anything is recorded; an invoice whose content cannot be
 * read (corrupt, encrypted, no text) is recorded `failed` with the reason.
 */
export function createUploadsService(deps: {
  reader: DocumentReader;
  blobs: BlobStore;
  tenants: TenantsService;
  invoices: InvoicesService;
  receipts: ReceiptsService;
  search: SearchService;
  log: { warn(obj: object, msg: string): void };
}) {
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

  async function read(bytes: Uint8Array, kind: DocumentKind): Promise<PageText[]> {
    const { pages } = await deps.reader.read(bytes, kind);
    if (!pages.some((p) => p.words.length > 0)) throw new UnreadableDocumentError('no text could be read from the document');
    return pages;
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
        const pages = await read(options.file.bytes, 'invoice');
        await deps.invoices.recordPageCount(started, pages.length);
        const extracted = extractInvoiceFields(pages);
        if (extracted.length === 0) return [await deps.invoices.fail(started, 'no invoice could be found in the document')];
        const invoices = await deps.invoices.complete(started, extracted);
        await indexQuietly('invoices', () => deps.search.indexUploadedInvoices(invoices));
        return invoices;
      } catch (err) {
        if (err instanceof UnreadableDocumentError) return [await deps.invoices.fail(started, err.message)];
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
        const pages = await read(options.file.bytes, 'receipt');
        const fields = extractReceiptFields(pages);
        const receipt = await deps.receipts.record(tenantId, { ...document, pageCount: pages.length }, fields, options.useType ?? 'business');
        await indexQuietly('a receipt', () => deps.search.indexReceipts([receipt]));
        return receipt;
      } catch (err) {
        if (document?.blobKey) await deps.blobs.delete(document.blobKey).catch(() => undefined);
        if (err instanceof UnreadableDocumentError) throw InvalidInput.field('file', `could not be read as a receipt: ${err.message}`);
        throw err;
      }
    },
  };
}
export type UploadsService = ReturnType<typeof createUploadsService>;
