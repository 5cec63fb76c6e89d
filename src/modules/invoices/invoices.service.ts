import type { Kysely } from 'kysely';
import { findDocumentNotes, insertDocument, lockTenantDocuments, setDocumentReading } from '../documents/documents.queries.ts';
import {
  findDuplicateInvoice,
  findInvoices,
  pageInvoices,
  scanProcessedInvoices,
  type InvoiceRow,
  insertInvoice,
  insertInvoiceLineItems,
  listInvoiceLineItems,
  updateInvoice,
} from './invoices.queries.ts';
import { leaseExpiry, lockOwnedProcessing } from '../documents/extraction-leases.queries.ts';
import { appendEvent } from '../../platform/events/outbox.queries.ts';
import type { DB } from '../../platform/db/types.ts';
import { addVendorSpend, upsertVendor } from '../vendors/vendors.queries.ts';
import type { Principal } from '../../platform/auth/authenticate.ts';
import { type ExtractionLease, LeaseLostError } from '../documents/extraction-lease.ts';
import type { DeliveredInvoice } from '../../extraction/types.ts';
import { type Connection, pageRequest, toConnection } from '../../platform/lib/pagination.ts';
import type { TenantsService } from '../tenants/tenants.service.ts';
import { normalizeVendorName } from '../vendors/vendor-name.ts';
import { evidenceColumn } from './evidence.ts';
import { asStored, type Categorize, type Invoice, type InvoiceListArgs, type LineItem, type NewDocument, resource, toInvoice, toLineItem } from './invoice.ts';

/**
 * Recording invoices: every state change and its outbox event share one transaction
 * (invoice.created → invoice.processed | invoice.failed | invoice.duplicate; vendor.created for a new normalized
 * vendor name). An invoice that repeats one the tenant has (findDuplicateInvoice) is recorded as its duplicate: it
 * keeps what was read, points at the original and adds nothing to the vendor's totals.
 */
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
    const lines = await listInvoiceLineItems(
      db,
      [...new Set(rows.map((r) => r.tenantId))],
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({ ...toInvoice(r), lineItems: lines.filter((l) => l.invoiceId === r.id).map(toLineItem) }));
  }

  return {
    /**
     * Records the uploaded document (and where its bytes go) and opens its invoice in `processing`, leased to us.
     * `forced`: the partner asked for a fresh record, never a duplicate.
     */
    async start(tenantId: string, document: NewDocument, storeId: string | null, forced = false): Promise<Invoice> {
      return recording(async (trx) => {
        const doc = await insertDocument(trx, tenantId, { ...document, kind: 'invoice' });
        const row = await insertInvoice(trx, tenantId, { documentId: doc.id, storeId, forced, processingOwner: owner, leaseUntil: leaseExpiry(deps.lease.ms) });
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
        if (!started.forced) await lockTenantDocuments(trx, tenantId);
        const out: Array<Invoice & { lineItems: LineItem[] }> = [];
        for (const [i, fields] of extracted.entries()) {
          let id = started.id;
          if (i > 0) {
            const extra = await insertInvoice(trx, tenantId, { documentId: started.documentId, storeId: started.storeId, forced: started.forced });
            await appendEvent(trx, tenantId, { type: 'invoice.created', subjectId: extra.id, payload: resource(toInvoice(extra), []) });
            id = extra.id;
          }
          const normalized = fields.vendorName ? normalizeVendorName(fields.vendorName) : '';
          const original = started.forced
            ? undefined
            : await findDuplicateInvoice(trx, tenantId, {
                id,
                documentId: started.documentId,
                pages: fields.pages,
                vendorNormalizedName: normalized || null,
                invoiceNumber: fields.invoiceNumber,
                total: fields.total,
              });
          // A duplicate is attributed to its original's vendor and counts nowhere.
          let vendorId: string | null = original ? original.vendorId : null;
          if (!original && fields.vendorName && normalized) {
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
          const lineItems = fields.lineItems.map((item, k) => ({ ...asStored(item, categories[i]![k]!), evidence: fields.evidence?.lineItems[k] ?? null }));
          await insertInvoiceLineItems(
            trx,
            tenantId,
            id,
            lineItems.map((l) => ({ ...l, evidence: evidenceColumn(l.evidence) })),
          );
          const row = await updateInvoice(trx, tenantId, id, {
            status: 'processed',
            duplicateOf: original?.id ?? null,
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
            evidence: evidenceColumn(fields.evidence?.fields),
            pages: fields.pages,
            processedAt: new Date(),
            ...ENDED,
          });
          const type = original ? 'invoice.duplicate' : 'invoice.processed';
          await appendEvent(trx, tenantId, { type, subjectId: id, payload: resource(toInvoice(row), lineItems) });
          out.push({ ...toInvoice(row), lineItems });
        }
        return out;
      });
    },

    /** How many pages the uploaded document has and what reading left out (known once it was read). */
    recordReading: (invoice: Invoice, reading: { pageCount: number; notes: string[] }) => setDocumentReading(db, invoice.tenantId, invoice.documentId, reading),

    /** The caller's invoices, newest first, as a connection (first/after; filters). */
    async list(principal: Principal, args: InvoiceListArgs): Promise<Connection<Invoice>> {
      const page = pageRequest(args);
      const f = args.filter ?? {};
      const tenantIds = await deps.tenants.scope(principal, f.tenantId);
      const rows = await pageInvoices(
        db,
        tenantIds,
        {
          includeDuplicates: f.includeDuplicates,
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

    /** Processed originals of every tenant with their lines, in id order after `afterId` (full scans). */
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

/** A record that ended holds no lease. */
const ENDED = { processingOwner: null, leaseUntil: null } as const;

/** Notes of the documents behind invoices or receipts, in the order of their ids ([] for an id not found). */
export async function notesInOrder(db: Kysely<DB>, owner: 'invoices' | 'receipts', tenantIds: readonly string[], ids: readonly string[]): Promise<string[][]> {
  const rows = await findDocumentNotes(db, owner, tenantIds, ids);
  return ids.map((id) => rows.find((r) => r.id === id)?.notes ?? []);
}
