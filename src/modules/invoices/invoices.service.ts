import type { Insertable, Kysely } from 'kysely';
import { findDocumentNotes, insertDocument, setDocumentReading } from '../documents/documents.queries.ts';
import {
  findInvoices,
  pageInvoices,
  scanProcessedInvoices,
  type InvoiceLineItemRow,
  type InvoiceRow,
  insertInvoice,
  insertInvoiceLineItems,
  listInvoiceLineItems,
  updateInvoice,
} from './invoices.queries.ts';
import { leaseExpiry, lockOwnedProcessing } from '../documents/extraction-leases.queries.ts';
import { appendEvent } from '../../platform/events/outbox.queries.ts';
import type { DB, DocumentsTable } from '../../platform/db/types.ts';
import { addVendorSpend, upsertVendor } from '../vendors/vendors.queries.ts';
import type { Principal } from '../../platform/auth/authenticate.ts';
import { type ExtractionLease, LeaseLostError } from '../documents/extraction-lease.ts';
import type { DeliveredInvoice, ExtractedLineItem, InvoiceSource } from '../../extraction/types.ts';
import { type Connection, pageRequest, toConnection } from '../../platform/lib/pagination.ts';
import type { TenantsService } from '../tenants/tenants.service.ts';
import { normalizeVendorName } from '../vendors/vendor-name.ts';

import type { CategorizeLines } from '../../extraction/categorizer.ts';

export type Categorize = CategorizeLines;

/** An extracted line with the cost category it was given. */
export interface LineItem extends ExtractedLineItem {
  costCategory: string;
}

/** An invoice as the API shows it (ExtractedInvoice), plus what the service needs to know of it. */
export interface Invoice {
  id: string;
  tenantId: string;
  documentId: string;
  storeId: string | null;
  vendorId: string | null;
  vendorName: string | null;
  invoiceNumber: string | null;
  invoiceDate: string | null;
  dueDate: string | null;
  subtotal: number | null;
  tax: number | null;
  total: number | null;
  currency: string | null;
  extractionConfidence: number | null;
  fieldConfidences: Record<string, number>;
  /** Where the values came from (DESIGN §9); null until processed, and for invoices recorded before it was kept. */
  source: InvoiceSource | null;
  status: 'processing' | 'processed' | 'failed';
  error: string | null;
  pages: number[];
  createdAt: Date;
}

/** A document row to write; where the bytes went, who sent them and what reading left out are optional. */
export type NewDocument = Omit<DocumentsTable, 'id' | 'tenantId' | 'createdAt' | 'kind' | 'blobTemporary' | 'apiKeyId' | 'channel' | 'notes'> & {
  blobTemporary?: boolean;
  apiKeyId?: string | null;
  channel?: DocumentsTable['channel'];
} & Pick<Insertable<DocumentsTable>, 'notes'>;

/**
 * Recording invoices: every state change and its outbox event share one transaction
 * (invoice.created → invoice.processed | invoice.failed; vendor.created for a new normalized vendor name).
 */
export interface InvoiceListArgs {
  first?: number | null;
  after?: string | null;
  filter?: {
    tenantId?: string | null;
    status?: Invoice['status'] | null;
    vendorId?: string | null;
    vendorName?: string | null;
    dateFrom?: string | null;
    dateTo?: string | null;
    storeId?: string | null;
  } | null;
}

export function createInvoicesService(
  db: Kysely<DB>,
  deps: { categorize: Categorize; tenants: TenantsService; lease: ExtractionLease; /** Outbox events were committed. */ written?: () => void },
) {
  const { owner } = deps.lease;
  /** Inside a recording transaction: the started invoice is still ours to end (exactly one terminal event). */
  async function ownIt(trx: Kysely<DB>, started: Invoice): Promise<void> {
    if (!(await lockOwnedProcessing(trx, started.tenantId, started.id, owner))) throw new LeaseLostError(started.id);
  }

  /** Runs a recording transaction, then tells the dispatcher its outbox events are there. */
  async function recording<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
    const result = await db.transaction().execute(work);
    deps.written?.();
    return result;
  }

  async function withLines(rows: InvoiceRow[]): Promise<Array<Invoice & { lineItems: LineItem[] }>> {
    const lines = await listInvoiceLineItems(db, [...new Set(rows.map((r) => r.tenantId))], rows.map((r) => r.id));
    return rows.map((r) => ({ ...toInvoice(r), lineItems: lines.filter((l) => l.invoiceId === r.id).map(toLineItem) }));
  }

  return {
    /** Records the uploaded document (and where its bytes go) and opens its invoice in `processing`, leased to us. */
    async start(tenantId: string, document: NewDocument, storeId: string | null): Promise<Invoice> {
      return recording(async (trx) => {
        const doc = await insertDocument(trx, tenantId, { ...document, kind: 'invoice' });
        const row = await insertInvoice(trx, tenantId, { documentId: doc.id, storeId, processingOwner: owner, leaseUntil: leaseExpiry(deps.lease.ms) });
        const invoice = toInvoice(row);
        await appendEvent(trx, tenantId, { type: 'invoice.created', subjectId: row.id, payload: resource(invoice, []) });
        return invoice;
      });
    },

    /**
     * Fills the invoice with what extraction found. A document holding several invoices (a multi-vendor PDF)
     * fills the started one with the first and creates one more record per further invoice.
     */
    async complete(started: Invoice, extracted: readonly DeliveredInvoice[]): Promise<Array<Invoice & { lineItems: LineItem[] }>> {
      if (extracted.length === 0) throw new Error('complete() needs at least one extracted invoice');
      const { tenantId } = started;
      // Categories first (the categoriser may embed descriptions): the transaction stays short.
      const categories = await Promise.all(extracted.map((f) => deps.categorize(f.lineItems, { vendorName: f.vendorName })));
      // The recorded invoices with the lines just written (no second read).
      return recording(async (trx) => {
        await ownIt(trx, started);
        const out: Array<Invoice & { lineItems: LineItem[] }> = [];
        for (const [i, fields] of extracted.entries()) {
          let id = started.id;
          if (i > 0) {
            const extra = await insertInvoice(trx, tenantId, { documentId: started.documentId, storeId: started.storeId });
            await appendEvent(trx, tenantId, { type: 'invoice.created', subjectId: extra.id, payload: resource(toInvoice(extra), []) });
            id = extra.id;
          }
          let vendorId: string | null = null;
          const normalized = fields.vendorName ? normalizeVendorName(fields.vendorName) : '';
          if (fields.vendorName && normalized) {
            const vendor = await upsertVendor(trx, tenantId, { name: fields.vendorName, normalizedName: normalized });
            vendorId = vendor.id;
            if (vendor.created) {
              await appendEvent(trx, tenantId, {
                type: 'vendor.created',
                subjectId: vendor.id,
                payload: { id: vendor.id, name: fields.vendorName, normalizedName: normalized, invoiceCount: 0, totalSpent: 0 },
              });
            }
            await addVendorSpend(trx, tenantId, vendor.id, fields.total ?? 0);
          }
          const lineItems = fields.lineItems.map((item, k) => asStored(item, categories[i]![k]!));
          await insertInvoiceLineItems(trx, tenantId, id, lineItems);
          const row = await updateInvoice(trx, tenantId, id, {
            status: 'processed',
            vendorId,
            vendorName: fields.vendorName,
            invoiceNumber: fields.invoiceNumber,
            invoiceDate: fields.invoiceDate,
            dueDate: fields.dueDate,
            subtotal: fields.subtotal,
            tax: fields.tax,
            total: fields.total,
            currency: fields.currency,
            extractionConfidence: Math.round(fields.confidence * 100) / 100,
            fieldConfidences: JSON.stringify(fields.fieldConfidences),
            source: fields.source,
            pages: fields.pages,
            processedAt: new Date(),
            ...ENDED,
          });
          await appendEvent(trx, tenantId, { type: 'invoice.processed', subjectId: id, payload: resource(toInvoice(row), lineItems) });
          out.push({ ...toInvoice(row), lineItems });
        }
        return out;
      });
    },

    /** How many pages the uploaded document has and what reading left out (known once it was read). */
    recordReading: (invoice: Invoice, reading: { pageCount: number; notes: string[] }) =>
      setDocumentReading(db, invoice.tenantId, invoice.documentId, reading),

    /** The caller's invoices, newest first, as a connection (first/after; filters). */
    async list(principal: Principal, args: InvoiceListArgs): Promise<Connection<Invoice>> {
      const page = pageRequest(args);
      const f = args.filter ?? {};
      const tenantIds = await deps.tenants.scope(principal, f.tenantId);
      const rows = await pageInvoices(
        db,
        tenantIds,
        {
          status: f.status,
          vendorId: f.vendorId,
          vendorNormalizedName: f.vendorName ? normalizeVendorName(f.vendorName) : null,
          dateFrom: f.dateFrom,
          dateTo: f.dateTo,
          storeId: f.storeId,
        },
        page.afterId,
        page.fetch,
      );
      return toConnection(rows.map(toInvoice), page.first);
    },

    /** Processed invoices of every tenant with their lines, in id order after `afterId` (full scans). */
    async scan(afterId: string | null, limit: number): Promise<Array<Invoice & { lineItems: LineItem[] }>> {
      return withLines(await scanProcessedInvoices(db, afterId, limit));
    },

    /** Ends the invoice `failed`, keeping why. */
    async fail(started: Invoice, reason: string): Promise<Invoice> {
      return recording(async (trx) => {
        await ownIt(trx, started);
        const row = await updateInvoice(trx, started.tenantId, started.id, { status: 'failed', error: reason, processedAt: new Date(), ...ENDED });
        const invoice = toInvoice(row);
        await appendEvent(trx, started.tenantId, { type: 'invoice.failed', subjectId: row.id, payload: resource(invoice, []) });
        return invoice;
      });
    },

    /** Invoices by id among the given tenants, in the order of `ids` (null where none: a DataLoader batch). */
    async byIds(tenantIds: readonly string[], ids: readonly string[]): Promise<Array<Invoice | null>> {
      const rows = await findInvoices(db, tenantIds, ids);
      return ids.map((id) => {
        const row = rows.find((r) => r.id === id);
        return row ? toInvoice(row) : null;
      });
    },

    /** Line items per invoice id, in the order of `invoiceIds` (a DataLoader batch). */
    async lineItemsOf(tenantIds: readonly string[], invoiceIds: readonly string[]): Promise<LineItem[][]> {
      const rows = await listInvoiceLineItems(db, tenantIds, invoiceIds);
      return invoiceIds.map((id) => rows.filter((r) => r.invoiceId === id).map(toLineItem));
    },

    /** Notes of each invoice's document, in the order of `invoiceIds` (a DataLoader batch). */
    notesOf: (tenantIds: readonly string[], invoiceIds: readonly string[]) => notesInOrder(db, 'invoices', tenantIds, invoiceIds),
  };
}
export type InvoicesService = ReturnType<typeof createInvoicesService>;

/** The ExtractedInvoice resource (webhook payloads and REST bodies share it). */
export function resource(invoice: Invoice, lineItems: readonly LineItem[]) {
  return {
    id: invoice.id,
    storeId: invoice.storeId ?? null,
    vendorName: invoice.vendorName,
    invoiceNumber: invoice.invoiceNumber,
    invoiceDate: invoice.invoiceDate,
    dueDate: invoice.dueDate,
    subtotal: invoice.subtotal,
    tax: invoice.tax,
    total: invoice.total,
    currency: invoice.currency,
    extractionConfidence: invoice.extractionConfidence,
    status: invoice.status,
    source: invoice.source ?? null,
    lineItems,
    costCategories: [...new Set(lineItems.map((l) => l.costCategory))],
    createdAt: invoice.createdAt.toISOString(),
    ...(invoice.error ? { error: invoice.error } : {}),
  };
}

/** A record that ended holds no lease. */
const ENDED = { processingOwner: null, leaseUntil: null } as const;

const round = (v: number | null, places: number) => (v === null ? null : Math.round(v * 10 ** places) / 10 ** places);

/** A line as its columns keep it (quantity and unit price to 4 places, total to 2), so what an upload returns is what GET reads. */
export function asStored(item: ExtractedLineItem, costCategory: string): LineItem {
  return { ...item, quantity: round(item.quantity, 4), unitPrice: round(item.unitPrice, 4), total: round(item.total, 2), costCategory };
}

/** Notes of the documents behind invoices or receipts, in the order of their ids ([] for an id not found). */
export async function notesInOrder(db: Kysely<DB>, owner: 'invoices' | 'receipts', tenantIds: readonly string[], ids: readonly string[]): Promise<string[][]> {
  const rows = await findDocumentNotes(db, owner, tenantIds, ids);
  return ids.map((id) => rows.find((r) => r.id === id)?.notes ?? []);
}

/** A numeric column (text from pg) as a number. */
export const num = (v: string | null) => (v === null ? null : Number(v));

export function toInvoice(r: InvoiceRow): Invoice {
  return {
    id: r.id,
    tenantId: r.tenantId,
    documentId: r.documentId,
    storeId: r.storeId,
    vendorId: r.vendorId,
    vendorName: r.vendorName,
    invoiceNumber: r.invoiceNumber,
    invoiceDate: r.invoiceDate,
    dueDate: r.dueDate,
    subtotal: num(r.subtotal),
    tax: num(r.tax),
    total: num(r.total),
    currency: r.currency,
    extractionConfidence: num(r.extractionConfidence),
    fieldConfidences: (r.fieldConfidences ?? {}) as Record<string, number>,
    source: r.source,
    status: r.status,
    error: r.error,
    pages: r.pages,
    createdAt: r.createdAt,
  };
}

/** A stored line (of an invoice or a receipt: the same columns) as the API shows it. */
export function toLineItem(r: Omit<InvoiceLineItemRow, 'invoiceId'>): LineItem {
  return {
    description: r.description,
    sku: r.sku,
    quantity: num(r.quantity),
    unit: r.unit,
    unitPrice: num(r.unitPrice),
    total: num(r.total),
    costCategory: r.costCategory,
  };
}
