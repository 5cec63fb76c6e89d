import { createHash, randomUUID } from 'node:crypto';
import type { Principal } from '../../platform/auth/authenticate.ts';
import { InvalidInput, Upstream } from '../../platform/errors.ts';
import { type DocumentExtractor, ExtractionServiceError, MIME_TYPES as MIME } from '../../extraction/extractor.ts';
import { type DocumentKind, type FileType, UnreadableDocumentError, UnsupportedFileError } from '../../extraction/types.ts';
import { sniffFileType } from '../../extraction/sniff.ts';
import type { UploadedFile } from '../../platform/lib/uploaded-file.ts';
import { isUuid } from '../../platform/lib/ids.ts';
import { indexQuietly, type InvoiceExtraction, meterQuietly } from './invoice-extraction.ts';
import type { InvoicesService } from '../invoices/invoices.service.ts';
import type { Invoice, LineItem, NewDocument } from '../invoices/invoice.ts';
import type { Receipt, ReceiptsService, UseType } from '../receipts/receipts.service.ts';
import type { SearchService } from '../search/search.service.ts';
import type { BlobStore } from '../../platform/storage/index.ts';
import type { TenantsService } from '../tenants/tenants.service.ts';
import type { Channel } from '../../platform/rate-limit/policy.ts';
import type { UsageService } from '../usage/usage.service.ts';

export interface UploadOptions {
  file: UploadedFile;
  tenantId?: string | null;
  /** Keep the file in the account's archive; default: kept on the Extraction + Storage and Platform Embed tiers. */
  keepFile?: boolean | null;
  /** How the request came in (metered with the document; default graphql). */
  channel?: Channel;
  /** Record a fresh record even when the file repeats one the tenant has (default: record a duplicate). */
  force?: boolean | null;
}

/**
 * Uploads, end to end and synchronously (access is checked by the resolver): check the input, sniff the bytes, and
 * extract the fields (the configured provider: local engine or Document AI). Files that are not an accepted type are
 * 400 before anything is recorded.
 *
 * Invoices: the document row (pointing at its blob) and the `processing` record are written first, the bytes are
 * stored before extraction starts, so a crash at any point leaves a record that start-up recovery finishes from the
 * blob (extraction-recovery.ts). Tiers that do not keep files get a temporary blob, deleted once the record ends.
 * An invoice whose content cannot be read, or that the extraction service failed on, is recorded `failed`.
 *
 * Receipts have no `processing` record: they are extracted from the request's bytes and recorded only when done,
 * so a crash leaves nothing behind but a failed request; a kept file is stored right before the record.
 */
export function createUploadsService(deps: {
  extractor: DocumentExtractor;
  extraction: InvoiceExtraction;
  blobs: BlobStore;
  tenants: TenantsService;
  invoices: InvoicesService;
  receipts: ReceiptsService;
  search: SearchService;
  usage: UsageService;
  log: { warn(obj: object, msg: string): void; error?(obj: object, msg: string): void };
}) {
  /** Sniffs the bytes and describes the document row: where its bytes go, whether they are kept, who sent them. */
  function intake(
    principal: Principal,
    tenantId: string,
    kind: DocumentKind,
    options: UploadOptions,
  ): { document: NewDocument; fileType: FileType; blob: { key: string; temporary: boolean }; channel: Channel } {
    const { file } = options;
    let fileType: FileType;
    try {
      fileType = sniffFileType(file.bytes, kind);
    } catch (err) {
      // Worded as the adapter words it ("file is not a supported document: the file is empty").
      if (err instanceof UnsupportedFileError) throw InvalidInput.field('file', `is not a supported document: ${err.message}`);
      throw err;
    }
    const keep = options.keepFile ?? principal.partner.tier !== 'extraction';
    const blob = { key: `${tenantId}/${kind}s/${randomUUID()}.${fileType === 'jpeg' ? 'jpg' : fileType}`, temporary: !keep };
    const channel = options.channel ?? 'graphql';
    const document: NewDocument = {
      fileType,
      mimeType: MIME[fileType],
      sizeBytes: file.bytes.length,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
      originalName: file.filename?.slice(0, 255) ?? null,
      blobKey: blob.key,
      blobTemporary: blob.temporary,
      apiKeyId: isUuid(principal.keyId) ? principal.keyId : null,
      channel,
      pageCount: null,
    };
    return { document, fileType, blob, channel };
  }

  return {
    async uploadInvoice(principal: Principal, options: UploadOptions & { storeId?: string | null }): Promise<Array<Invoice & { lineItems?: LineItem[] }>> {
      const tenantId = await deps.tenants.resolve(principal, options.tenantId);
      if (options.storeId != null) await deps.tenants.requireStore(tenantId, options.storeId);
      const { document, fileType, blob, channel } = intake(principal, tenantId, 'invoice', options);
      const invoice = await deps.invoices.start(tenantId, document, options.storeId ?? null, options.force ?? false);
      return deps.extraction.run({ invoice, bytes: options.file.bytes, fileType, blob, storeFirst: true, payer: payerOf(principal), channel });
    },

    async uploadReceipt(principal: Principal, options: UploadOptions & { useType?: UseType | null }): Promise<Receipt & { lineItems: LineItem[] }> {
      const tenantId = await deps.tenants.resolve(principal, options.tenantId);
      const { document, fileType, blob, channel } = intake(principal, tenantId, 'receipt', options);
      const kept = blob.temporary ? null : blob.key;
      let stored = false;
      try {
        const { pageCount, receipt: fields, notes } = await deps.extractor.extractReceipt(options.file.bytes, fileType, { lane: tenantId });
        if (kept) {
          await deps.blobs.put(kept, options.file.bytes, document.mimeType);
          stored = true;
        }
        const receipt = await deps.receipts.record(tenantId, { ...document, blobKey: kept, blobTemporary: false, pageCount, notes }, fields, {
          useType: options.useType ?? 'business',
          forced: options.force ?? false,
        });
        // A duplicate is neither charged nor searchable: its original is.
        if (!receipt.duplicateOf) {
          await meterQuietly(deps.usage, deps.log, payerOf(principal), {
            tenantId,
            documentId: receipt.documentId,
            kind: 'receipt',
            pages: pageCount,
            channel,
          });
          await indexQuietly(deps.log, 'a receipt', () => deps.search.indexReceipts([receipt]));
        }
        return receipt;
      } catch (err) {
        if (stored && kept) await deps.blobs.delete(kept).catch(() => undefined);
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

/** Who pays for a document: the partner, and the API key when one sent it (a signed-in user's upload has none). */
const payerOf = (principal: Principal) => ({ partner: principal.partner, keyId: isUuid(principal.keyId) ? principal.keyId : null });
