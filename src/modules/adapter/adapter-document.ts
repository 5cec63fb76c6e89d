import type { DeliveredInvoice, ExtractedLineItem, ExtractedReceiptFields } from '../../extraction/types.ts';
import type { CostCategory } from '../../extraction/categories.ts';
import { asStored } from '../invoices/invoice.ts';

// The documents POST /api/v1/partner/extract returns, before the partner's profile shapes them.

const round2 = (v: number | null | undefined) => (v == null ? null : Math.round(v * 100) / 100);

function lines(items: readonly ExtractedLineItem[], categories: readonly CostCategory[]) {
  return items.map((item, i) => {
    const l = asStored(item, categories[i] ?? 'other_expense');
    return { description: l.description, sku: l.sku, quantity: l.quantity, unit: l.unit, unitPrice: l.unitPrice, total: l.total, costCategory: l.costCategory };
  });
}

/** An extracted receipt as the adapter returns it (shaped afterwards by the partner's profile). */
export function receiptDocument(
  r: ExtractedReceiptFields,
  pageCount: number,
  categories: readonly CostCategory[],
  taxCategory: string,
): Record<string, unknown> {
  const lineItems = lines(r.lineItems, categories);
  return {
    documentType: 'receipt',
    pageCount,
    merchantName: r.merchantName,
    receiptDate: r.receiptDate,
    subtotal: r.subtotal,
    tax: r.tax,
    tip: r.tip,
    total: r.total,
    currency: r.currency,
    taxCategory,
    paymentMethod: r.paymentMethod,
    extractionConfidence: round2(r.confidence),
    fieldConfidences: r.fieldConfidences,
    lineItems,
    costCategories: [...new Set(lineItems.map((l) => l.costCategory))],
  };
}

/** An extracted invoice as the adapter returns it (shaped afterwards by the partner's profile). */
export function invoiceDocument(inv: DeliveredInvoice, pageCount: number, categories: readonly CostCategory[]): Record<string, unknown> {
  const lineItems = lines(inv.lineItems, categories);
  return {
    documentType: 'invoice',
    pageCount,
    vendorName: inv.vendorName,
    invoiceNumber: inv.invoiceNumber,
    invoiceDate: inv.invoiceDate,
    dueDate: inv.dueDate,
    subtotal: inv.subtotal,
    tax: inv.tax,
    total: inv.total,
    currency: inv.currency,
    extractionConfidence: round2(inv.confidence),
    fieldConfidences: inv.fieldConfidences,
    source: inv.source,
    lineItems,
    costCategories: [...new Set(lineItems.map((l) => l.costCategory))],
  };
}
