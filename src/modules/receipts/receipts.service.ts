import type { Kysely } from 'kysely';
import { insertDocument, lockTenantDocuments } from '../documents/documents.queries.ts';
import {
  findDuplicateReceipt,
  findReceipts,
  insertReceipt,
  insertReceiptLineItems,
  listReceiptLineItems,
  pageReceipts,
  scanReceipts,
  type ReceiptRow,
} from './receipts.queries.ts';
import { appendEvent } from '../../platform/events/outbox.queries.ts';
import type { DB } from '../../platform/db/types.ts';
import type { Principal } from '../../platform/auth/authenticate.ts';
import type { ExtractedReceiptFields, PaymentMethod, PaymentMethodType } from '../../extraction/types.ts';
import { notesInOrder } from '../invoices/invoices.service.ts';
import { asStored, type Categorize, contractLine, type LineItem, type NewDocument, num, toLineItem } from '../invoices/invoice.ts';
import { type Evidence, evidenceColumn, storedEvidence } from '../invoices/evidence.ts';
import { type Connection, pageRequest, toConnection } from '../../platform/lib/pagination.ts';
import type { TenantsService } from '../tenants/tenants.service.ts';

export type UseType = 'business' | 'personal' | 'mixed';

/** A receipt as the API shows it (ExtractedReceipt), plus what the service needs to know of it. */
export interface Receipt {
  id: string;
  tenantId: string;
  documentId: string;
  merchantName: string | null;
  receiptDate: string | null;
  subtotal: number | null;
  tax: number | null;
  tip: number | null;
  total: number | null;
  currency: string | null;
  taxCategory: string | null;
  useType: UseType;
  paymentMethod: PaymentMethod | null;
  extractionConfidence: number | null;
  fieldConfidences: Record<string, number>;
  /** The original this record repeats (the same file); null for an original. */
  duplicateOf: string | null;
  createdAt: Date;
  /** Where each header value was read (null: none kept; absent in an event's snapshot). */
  evidence?: Evidence[] | null;
}

export interface ReceiptListArgs {
  first?: number | null;
  after?: string | null;
  filter?: {
    tenantId?: string | null;
    useType?: UseType | null;
    merchantName?: string | null;
    dateFrom?: string | null;
    dateTo?: string | null;
    includeDuplicates?: boolean | null;
  } | null;
}

export type TaxCategorize = (fields: ExtractedReceiptFields) => string;

/**
 * Recording receipts: the document, the receipt, its line items and `receipt.processed` in one transaction. A file
 * the tenant already has a receipt of is recorded as that receipt's duplicate, with `receipt.duplicate` instead.
 */
export function createReceiptsService(
  db: Kysely<DB>,
  deps: { categorize: Categorize; taxCategorize: TaxCategorize; tenants: TenantsService; written?: () => void },
) {
  return {
    async record(
      tenantId: string,
      document: NewDocument,
      fields: ExtractedReceiptFields,
      options: { useType: UseType; forced: boolean },
    ): Promise<Receipt & { lineItems: LineItem[] }> {
      const categories = await deps.categorize(fields.lineItems, { vendorName: fields.merchantName });
      const recorded = await db.transaction().execute(async (trx) => {
        let original: { id: string } | undefined;
        if (!options.forced) {
          await lockTenantDocuments(trx, tenantId);
          original = await findDuplicateReceipt(trx, tenantId, document.sha256);
        }
        const doc = await insertDocument(trx, tenantId, { ...document, kind: 'receipt' });
        const pm = fields.paymentMethod;
        const row = await insertReceipt(trx, tenantId, {
          documentId: doc.id,
          duplicateOf: original?.id ?? null,
          status: 'processed',
          error: null,
          merchantName: fields.merchantName,
          receiptDate: fields.receiptDate,
          subtotal: fields.subtotal,
          tax: fields.tax,
          tip: fields.tip,
          total: fields.total,
          currency: fields.currency,
          taxCategory: deps.taxCategorize(fields),
          useType: options.useType,
          paymentType: pm.type,
          cardBrand: pm.cardBrand,
          cardLast4: pm.last4 && /^\d{4}$/.test(pm.last4) ? pm.last4 : null,
          extractionConfidence: Math.round(fields.confidence * 100) / 100,
          fieldConfidences: JSON.stringify(fields.fieldConfidences),
          evidence: evidenceColumn(fields.evidence?.fields),
          processedAt: new Date(),
        });
        const lineItems = fields.lineItems.map((item, k) => ({ ...asStored(item, categories[k]!), evidence: fields.evidence?.lineItems[k] ?? null }));
        await insertReceiptLineItems(
          trx,
          tenantId,
          row.id,
          lineItems.map((l) => ({ ...l, evidence: evidenceColumn(l.evidence) })),
        );
        const receipt = toReceipt(row);
        const type = original ? 'receipt.duplicate' : 'receipt.processed';
        await appendEvent(trx, tenantId, { type, subjectId: row.id, payload: receiptResource(receipt, lineItems) });
        return { ...receipt, lineItems };
      });
      deps.written?.();
      return recorded;
    },

    /** Receipts by id among the given tenants, in the order of `ids` (null where none: a DataLoader batch). */
    async byIds(tenantIds: readonly string[], ids: readonly string[]): Promise<Array<Receipt | null>> {
      const rows = await findReceipts(db, tenantIds, ids);
      return ids.map((id) => {
        const row = rows.find((r) => r.id === id);
        return row ? toReceipt(row) : null;
      });
    },

    /** Line items per receipt id, in the order of `receiptIds` (a DataLoader batch). */
    async lineItemsOf(tenantIds: readonly string[], receiptIds: readonly string[]): Promise<LineItem[][]> {
      const rows = await listReceiptLineItems(db, tenantIds, receiptIds);
      return receiptIds.map((id) => rows.filter((r) => r.receiptId === id).map(toLineItem));
    },

    /** Notes of each receipt's document, in the order of `receiptIds` (a DataLoader batch). */
    notesOf: (tenantIds: readonly string[], receiptIds: readonly string[]) => notesInOrder(db, 'receipts', tenantIds, receiptIds),

    /** Receipts of every tenant with their lines, in id order after `afterId` (full scans). */
    async scan(afterId: string | null, limit: number): Promise<Array<Receipt & { lineItems: LineItem[] }>> {
      const rows = await scanReceipts(db, afterId, limit);
      const lines = await listReceiptLineItems(
        db,
        [...new Set(rows.map((r) => r.tenantId))],
        rows.map((r) => r.id),
      );
      return rows.map((r) => ({ ...toReceipt(r), lineItems: lines.filter((l) => l.receiptId === r.id).map(toLineItem) }));
    },

    /** The caller's receipts, newest first, as a connection. */
    async list(principal: Principal, args: ReceiptListArgs): Promise<Connection<Receipt>> {
      const page = pageRequest(args);
      const f = args.filter ?? {};
      const tenantIds = await deps.tenants.scope(principal, f.tenantId);
      const rows = await pageReceipts(db, tenantIds, f, page.afterId, page.fetch);
      return toConnection(rows.map(toReceipt), page.first);
    },
  };
}
export type ReceiptsService = ReturnType<typeof createReceiptsService>;

/** The ExtractedReceipt resource (webhook payloads share it with REST bodies). */
export function receiptResource(receipt: Receipt, lineItems: readonly LineItem[]) {
  return {
    id: receipt.id,
    merchantName: receipt.merchantName,
    receiptDate: receipt.receiptDate,
    subtotal: receipt.subtotal,
    tax: receipt.tax,
    tip: receipt.tip,
    total: receipt.total,
    taxCategory: receipt.taxCategory,
    useType: receipt.useType,
    paymentMethod: receipt.paymentMethod,
    duplicateOf: receipt.duplicateOf,
    lineItems: lineItems.map(contractLine),
    createdAt: receipt.createdAt.toISOString(),
  };
}

function toReceipt(r: ReceiptRow): Receipt {
  const type = r.paymentType as PaymentMethodType;
  return {
    id: r.id,
    tenantId: r.tenantId,
    documentId: r.documentId,
    merchantName: r.merchantName,
    receiptDate: r.receiptDate,
    subtotal: num(r.subtotal),
    tax: num(r.tax),
    tip: num(r.tip),
    total: num(r.total),
    currency: r.currency,
    taxCategory: r.taxCategory,
    useType: r.useType,
    paymentMethod: type === 'unknown' && !r.cardBrand && !r.cardLast4 ? null : { type, cardBrand: r.cardBrand, last4: r.cardLast4 },
    extractionConfidence: num(r.extractionConfidence),
    fieldConfidences: (r.fieldConfidences ?? {}) as Record<string, number>,
    duplicateOf: r.duplicateOf,
    createdAt: r.createdAt,
    evidence: storedEvidence(r.evidence),
  };
}
