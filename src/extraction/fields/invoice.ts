// Invoice fields from pages of words: vendor, number, dates, totals (cross-checked), line items, confidences.
import type { ExtractedInvoiceFields, PageText } from '../types.ts';
import { detectDecimalSeparator } from './amounts.ts';
import { detectCurrency } from './currency.ts';
import { findDates, inferDayFirst } from './dates.ts';
import { dateFinder, labelled, rank, type Candidate, type Label } from './labels.ts';
import { documentLines, type Line } from './layout.ts';
import { extractLineItems } from './line-items.ts';
import { invoiceNumber } from './numbers.ts';
import { splitInvoicePages } from './split.ts';
import { chooseTotals } from './totals.ts';
import { pickName } from './vendor.ts';

const L = (re: RegExp, weight: number): Label => ({ re, weight });

export const INVOICE_DATE_LABELS: Label[] = [
  L(/\b(invoice date|date of invoice|date de (?:la )?factur(?:e|ation)|rechnungsdatum|liefer- und rechnungsdatum|issue date|date of issue|belegdatum|ausstellungsdatum|date d'[ée]mission|billing date)\b/i, 3),
  L(/(^|\s)(date|datum|dated|le|den)\s*[:.,]?(?=\s*\d)/i, 1.5),
  L(/,\s*den\b/i, 2),
];
export const DUE_DATE_LABELS: Label[] = [
  L(/\b(due date|date d'[ée]ch[ée]ance|[ée]ch[ée]ance|f[äa]llig(?:keit|keitsdatum)?(?: am)?|zahlbar bis|payment due|due by|due on|pay by|zahlungsziel)\b/i, 3),
];
const DATE_BAD_CONTEXT = /livraison|delivery|liefer(?!- und rechnung)|p[ée]riode|period|d[ée]but|fin de|from|au\b|bis\b|associ|leistungszeitraum|order|commande|bestell|shipment|zeit|printed|druck/i;

function pickDate(lines: Line[], labels: Label[], dayFirst: boolean, bad: RegExp | null): Candidate<string> | null {
  const cands = labelled(lines, labels, dateFinder({ dayFirst }));
  for (const c of cands) {
    const ctx = c.line.text.slice(0, c.at);
    const seg = ctx.split(/\s{3,}/).filter((p) => p.trim()).pop() ?? '';
    if (bad?.test(seg)) c.score -= 2.5;
    if (c.line.index > lines.length * 0.85) c.score -= 1;
  }
  return rank(cands)[0] ?? null;
}

/** Fallback invoice date: the first date on the first page that is not in a period/delivery/due context. */
function firstDate(lines: Line[], dayFirst: boolean): Candidate<string> | null {
  for (const line of lines.slice(0, Math.ceil(lines.length * 0.5))) {
    if (DATE_BAD_CONTEXT.test(line.text) || DUE_DATE_LABELS.some((l) => l.re.test(line.text))) continue;
    const d = findDates(line.text, { dayFirst })[0];
    if (d) return { value: d.iso, score: 1, line, ocr: line.confidence, at: d.index, via: 'free' };
  }
  return null;
}

const pct = (c: Candidate<unknown> | null, base: number, bonus = 0) =>
  c ? Math.round(Math.min(99, base + Math.min(c.score, 4) * 8 + bonus) * (c.ocr / 100)) : 0;

/** Fields of one invoice (pages already belong together). */
export function extractSingleInvoice(pages: PageText[]): ExtractedInvoiceFields {
  const lines = documentLines(pages);
  const text = lines.map((l) => l.text).join('\n');
  const dec = detectDecimalSeparator(text);
  const dayFirst = inferDayFirst(text);
  const vendor = pickName(lines, 'invoice');
  const number = invoiceNumber(lines);
  const invDate = pickDate(lines, INVOICE_DATE_LABELS, dayFirst, DATE_BAD_CONTEXT) ?? firstDate(lines, dayFirst);
  const due = pickDate(lines, DUE_DATE_LABELS, dayFirst, null);
  const lineItems = extractLineItems(lines, dec);
  const lineTotals = lineItems.map((l) => l.total).filter((t): t is number => t !== null);
  const lineSum = lineTotals.length ? Math.round(lineTotals.reduce((a, b) => a + b, 0) * 100) / 100 : null;
  const t = chooseTotals(lines, dec, lineSum);
  const currency = detectCurrency(text);
  const checkBonus = t.checks.sumOk ? 25 : 0;
  const fieldConfidences = {
    vendorName: vendor.confidence,
    invoiceNumber: pct(number, 40),
    invoiceDate: pct(invDate, 40),
    dueDate: pct(due, 40),
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
    invoiceDate: invDate?.value ?? null,
    dueDate: due && due.value !== invDate?.value ? due.value : (due?.value ?? null),
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
