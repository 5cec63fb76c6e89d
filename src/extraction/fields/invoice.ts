// Invoice fields from pages of words: vendor, number, dates, totals (decided together), line items, confidences.
import type { ExtractedInvoiceFields, PageText } from '../types.ts';
import { amountConfidences, amountsProblem } from './confidence.ts';
import { detectCurrency } from './currency.ts';
import { ocrPage, readDoc } from './doc.ts';
import { extractLineItems } from './line-items.ts';
import { idAsPrinted } from './numbers.ts';
import { addDays, paymentTermDays } from './payment-terms.ts';
import { splitInvoicePages } from './split.ts';
import { chooseTotals } from './totals.ts';
import { chooseDates, chooseNumber } from './scoring/choose.ts';
import { chooseAmounts } from './scoring/choose-amounts.ts';
import { chooseVendor } from './scoring/choose-vendor.ts';
import { invoiceEvidence } from './invoice-evidence.ts';

/** Fields of one invoice (pages already belong together). */
export function extractSingleInvoice(pages: PageText[]): ExtractedInvoiceFields {
  const doc = readDoc(pages);
  const { lines, text } = doc;
  const vendor = chooseVendor(doc);
  // The number and the dates: ranked by the learned scorers (scoring/), whose features include the rules' choices.
  const chosenNumber = chooseNumber(doc);
  const number = chosenNumber.candidate;
  const chosenDates = chooseDates(doc);
  const dates = { invoice: chosenDates.invoice.candidate, due: chosenDates.due.candidate };
  // No due date printed: payment terms in words give one from the invoice date.
  const terms = !dates.due && dates.invoice ? paymentTermDays(doc) : null;
  const termDue = terms && dates.invoice ? addDays(dates.invoice.value, terms.days) : null;
  const lineItems = extractLineItems(doc);
  const lineTotals = lineItems.map((l) => l.total).filter((t): t is number => t !== null);
  const lineSum = lineTotals.length ? Math.round(lineTotals.reduce((a, b) => a + b, 0) * 100) / 100 : null;
  // Net, tax and total: the rules' labelled and arithmetic reading is one input of the learned amounts scorer.
  const t = chooseAmounts(doc, chooseTotals(doc, lineSum), lineItems, lineSum);
  const currency = detectCurrency(text, doc.langs);
  const amounts = amountConfidences(t);
  const fieldConfidences = {
    vendorName: vendor.confidence,
    invoiceNumber: number ? chosenNumber.confidence : 0,
    invoiceDate: dates.invoice ? chosenDates.invoice.confidence : 0,
    dueDate: termDue ? Math.min(75, chosenDates.invoice.confidence) : dates.due ? chosenDates.due.confidence : 0,
    subtotal: amounts.subtotal,
    tax: amounts.tax,
    total: amounts.total,
    currency: currency.confidence,
    lineItems: amounts.lineItems(lineItems.length),
  };
  // The invoice is right when all its key fields are: never surer than the weakest, and less sure for each other
  // field in doubt (a quarter of its doubt: field confidences err on the safe side, a full sum would double count).
  const keyed = (['vendorName', 'invoiceNumber', 'invoiceDate', 'total'] as const).map((k) => fieldConfidences[k]).sort((a, b) => a - b);
  const confidence = Math.max(0, Math.round(keyed[0]! - keyed.slice(1).reduce((s, c) => s + (100 - c), 0) / 4));
  const problem = amountsProblem(t, (n) => n.toFixed(2));
  const fields = {
    vendorName: vendor.name,
    invoiceNumber: number ? (ocrPage(pages, number.line.page) ? idAsPrinted(number.value) : number.value) : null,
    invoiceDate: dates.invoice?.value ?? null,
    dueDate: dates.due?.value ?? termDue,
    subtotal: t.subtotal?.value ?? null,
    tax: t.tax?.value ?? null,
    total: t.total?.value ?? null,
    currency: currency.currency,
    lineItems,
    confidence,
    fieldConfidences,
    pages: pages.map((p) => p.page),
    ...(problem ? { notes: [problem] } : {}),
  };
  // Where each value was read: the candidates chosen above (a due date from payment terms has none).
  return { ...fields, evidence: invoiceEvidence(doc, { vendor, number, invoiceDate: dates.invoice, dueDate: dates.due, totals: t }, fields) };
}

/** All invoices in a document: a multi-vendor PDF yields one record per invoice. */
export function extractInvoiceFields(pages: PageText[]): ExtractedInvoiceFields[] {
  if (!pages.length) return [];
  return splitInvoicePages(pages).map(extractSingleInvoice);
}
