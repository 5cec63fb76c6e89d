// Invoice fields from pages of words: vendor, number, dates, totals (decided together), line items, confidences.
import type { ExtractedInvoiceFields, PageText } from '../types.ts';
import type { FieldCandidate } from './candidates.ts';
import { detectCurrency } from './currency.ts';
import { readDoc } from './doc.ts';
import { invoiceDates } from './invoice-dates.ts';
import { extractLineItems } from './line-items.ts';
import { invoiceNumber } from './numbers.ts';
import { splitInvoicePages } from './split.ts';
import { chooseTotals } from './totals.ts';
import { pickSeller } from './seller.ts';

const pct = (c: FieldCandidate<unknown> | null, base: number, bonus = 0) =>
  c ? Math.round(Math.min(99, base + Math.min(c.score, 4) * 8 + bonus) * (c.ocr / 100)) : 0;

/** Fields of one invoice (pages already belong together). */
export function extractSingleInvoice(pages: PageText[]): ExtractedInvoiceFields {
  const doc = readDoc(pages);
  const { lines, text } = doc;
  const vendor = pickSeller(doc);
  const number = invoiceNumber(doc);
  const dates = invoiceDates(doc);
  const lineItems = extractLineItems(doc);
  const lineTotals = lineItems.map((l) => l.total).filter((t): t is number => t !== null);
  const lineSum = lineTotals.length ? Math.round(lineTotals.reduce((a, b) => a + b, 0) * 100) / 100 : null;
  const t = chooseTotals(doc, lineSum);
  const currency = detectCurrency(text);
  const checkBonus = t.checks.sumOk ? 25 : 0;
  const fieldConfidences = {
    vendorName: vendor.confidence,
    invoiceNumber: pct(number, 40),
    invoiceDate: pct(dates.invoice, 40),
    dueDate: pct(dates.due, 40),
    subtotal: pct(t.subtotal, 30, checkBonus + (t.checks.linesOk ? 10 : 0)),
    tax: pct(t.tax, 30, checkBonus),
    total: pct(t.total, 35, checkBonus),
    currency: currency.confidence,
    lineItems: lineItems.length ? Math.round(40 + (t.checks.linesOk ? 50 : 0) * (lines[0]?.confidence ?? 100) / 100) : 0,
  };
  const keys = ['vendorName', 'invoiceNumber', 'invoiceDate', 'total'] as const;
  const confidence = Math.round(keys.reduce((s, k) => s + fieldConfidences[k], 0) / keys.length);
  return {
    vendorName: vendor.name,
    invoiceNumber: number?.value ?? null,
    invoiceDate: dates.invoice?.value ?? null,
    dueDate: dates.due?.value ?? null,
    subtotal: t.subtotal?.value ?? null,
    tax: t.tax?.value ?? null,
    total: t.total?.value ?? null,
    currency: currency.currency,
    lineItems,
    confidence,
    fieldConfidences,
    pages: pages.map((p) => p.page),
  };
}

/** All invoices in a document: a multi-vendor PDF yields one record per invoice. */
export function extractInvoiceFields(pages: PageText[]): ExtractedInvoiceFields[] {
  if (!pages.length) return [];
  return splitInvoicePages(pages).map(extractSingleInvoice);
}
