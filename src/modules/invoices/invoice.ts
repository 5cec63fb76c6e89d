import type { Insertable } from 'kysely';
import type { CategorizeLines } from '../../extraction/categorizer.ts';
import type { ExtractedLineItem, InvoiceHeader, InvoiceSource } from '../../extraction/types.ts';
import type { DocumentsTable } from '../../platform/db/types.ts';
import type { InvoiceLineItemRow, InvoiceRow } from './invoices.queries.ts';
import type { CostCategory } from '../../extraction/categories.ts';
import { type Evidence, storedEvidence } from './evidence.ts';

// The invoice as the domain sees it, and its mappings from rows and to the REST/webhook resource.

export type Categorize = CategorizeLines;

/** An extracted line with the cost category it was given. */
export interface LineItem extends ExtractedLineItem {
  costCategory: CostCategory;
  /** Where each cell was read (null: none kept; absent in an event's snapshot, which carries the REST shape). */
  evidence?: Evidence[] | null;
}

/** An invoice as the API shows it (ExtractedInvoice), plus what the service needs to know of it. */
export interface Invoice extends InvoiceHeader {
  id: string;
  tenantId: string;
  documentId: string;
  storeId: string | null;
  vendorId: string | null;
  extractionConfidence: number | null;
  fieldConfidences: Record<string, number>;
  /** Where the values came from (DESIGN §9); null until processed, and for invoices recorded before it was kept. */
  source: InvoiceSource | null;
  status: 'processing' | 'processed' | 'failed';
  error: string | null;
  pages: number[];
  /** The original this record repeats (DESIGN §9 "Duplicate documents"); null for an original. */
  duplicateOf: string | null;
  /** Uploaded with `force`: recorded as an original whatever it repeats. */
  forced: boolean;
  createdAt: Date;
  /** Where each header value was read (null: none kept; absent in an event's snapshot). */
  evidence?: Evidence[] | null;
}

/** A document row to write; where the bytes went, who sent them and what reading left out are optional. */
export type NewDocument = Omit<DocumentsTable, 'id' | 'tenantId' | 'createdAt' | 'kind' | 'blobTemporary' | 'apiKeyId' | 'channel' | 'notes'> & {
  blobTemporary?: boolean;
  apiKeyId?: string | null;
  channel?: DocumentsTable['channel'];
} & Pick<Insertable<DocumentsTable>, 'notes'>;

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
    includeDuplicates?: boolean | null;
  } | null;
}

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
    duplicateOf: invoice.duplicateOf ?? null,
    lineItems: lineItems.map(contractLine),
    costCategories: [...new Set(lineItems.map((l) => l.costCategory))],
    createdAt: invoice.createdAt.toISOString(),
    ...(invoice.error ? { error: invoice.error } : {}),
  };
}

/** A line as REST bodies and webhook payloads show it: its evidence is GraphQL's only. */
export const contractLine = ({ evidence: _, ...line }: LineItem): Omit<LineItem, 'evidence'> => line;

const round = (v: number | null, places: number) => (v === null ? null : Math.round(v * 10 ** places) / 10 ** places);

/** A line as its columns keep it (quantity and unit price to 4 places, total to 2), so what an upload returns is what GET reads. */
export function asStored(item: ExtractedLineItem, costCategory: CostCategory): LineItem {
  return { ...item, quantity: round(item.quantity, 4), unitPrice: round(item.unitPrice, 4), total: round(item.total, 2), costCategory };
}

/** A stored cost category (a CHECK constraint keeps the column to the 19 labels). */
export const asCostCategory = (category: string) => category as CostCategory;

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
    duplicateOf: r.duplicateOf,
    forced: r.forced,
    createdAt: r.createdAt,
    evidence: storedEvidence(r.evidence),
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
    costCategory: asCostCategory(r.costCategory),
    evidence: storedEvidence(r.evidence),
  };
}
