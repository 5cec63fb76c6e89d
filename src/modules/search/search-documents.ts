import type { SearchDocument } from './search-index.queries.ts';
import type { Invoice, LineItem } from '../invoices/invoice.ts';
import type { Receipt } from '../receipts/receipts.service.ts';
import type { Vendor } from '../vendors/vendors.service.ts';

// What is embedded for each entity, and the preview a search result shows. The embedded text carries the
// words that describe the entity (names, what was bought, its categories); amounts and dates are in the
// preview and the result fields, where a reader needs them. Not the entity's kind: a word every receipt shares
// moves every receipt towards the same point and says nothing about which one a query means (on the dev set,
// MRR@10 0.205 → 0.250 without it); the kind is the search's `type` filter and each result's `type`. A vendor keeps
// its "vendor": a bare name is a short text that would outrank the documents it sold (a packaging query found the
// supplier "… Packaging …" before its invoice of takeout containers).

const PREVIEW_MAX = 200;
const words = (category: string) => category.replace(/_/g, ' ');

function clip(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= PREVIEW_MAX ? t : `${t.slice(0, PREVIEW_MAX - 1).trimEnd()}…`;
}

function money(total: number | null, currency: string | null): string | null {
  if (total === null) return null;
  return `${currency ? `${currency} ` : ''}${total.toFixed(2)}`;
}

export function searchDocumentOfInvoice(invoice: Invoice, lineItems: readonly LineItem[]): SearchDocument {
  const descriptions = lineItems.map((l) => l.description).filter((d): d is string => !!d);
  const categories = [...new Set(lineItems.map((l) => words(l.costCategory)))];
  const head = [
    invoice.vendorName ?? 'Unknown vendor',
    invoice.invoiceNumber && `invoice ${invoice.invoiceNumber}`,
    invoice.invoiceDate,
    money(invoice.total, invoice.currency),
  ]
    .filter(Boolean)
    .join(' · ');
  return {
    entityType: 'invoice',
    entityId: invoice.id,
    tenantId: invoice.tenantId,
    text: [invoice.vendorName, ...descriptions, ...categories].filter(Boolean).join('. '),
    preview: clip(descriptions.length ? `${head}: ${descriptions.join(', ')}` : head),
    vendorName: invoice.vendorName,
    merchantName: null,
    total: invoice.total,
    date: invoice.invoiceDate,
  };
}

export function searchDocumentOfReceipt(receipt: Receipt, lineItems: readonly LineItem[]): SearchDocument {
  const descriptions = lineItems.map((l) => l.description).filter((d): d is string => !!d);
  const head = [receipt.merchantName ?? 'Unknown merchant', 'receipt', receipt.receiptDate, money(receipt.total, receipt.currency)].filter(Boolean).join(' · ');
  return {
    entityType: 'receipt',
    entityId: receipt.id,
    tenantId: receipt.tenantId,
    text: [receipt.merchantName, ...descriptions, receipt.taxCategory].filter(Boolean).join('. '),
    preview: clip(descriptions.length ? `${head}: ${descriptions.join(', ')}` : head),
    vendorName: null,
    merchantName: receipt.merchantName,
    total: receipt.total,
    date: receipt.receiptDate,
  };
}

export function searchDocumentOfVendor(vendor: Vendor): SearchDocument {
  return {
    entityType: 'vendor',
    entityId: vendor.id,
    tenantId: vendor.tenantId,
    text: `${vendor.name}. vendor`,
    preview: clip(`${vendor.name} · vendor · ${vendor.invoiceCount} invoice${vendor.invoiceCount === 1 ? '' : 's'}`),
    vendorName: vendor.name,
    merchantName: null,
    total: null,
    date: null,
  };
}
