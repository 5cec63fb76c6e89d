// Receipt fields from (usually OCR'd) pages: merchant, date, totals, tip, currency, payment method, items.
import type { ExtractedReceiptFields, PageText } from '../types.ts';
import { detectDecimalSeparator } from './amounts.ts';
import { detectCurrency } from './currency.ts';
import { inferDayFirst } from './dates.ts';
import { amountFinder, dateFinder, labelled, rank, type Candidate, type Label } from './labels.ts';
import { documentLines } from './layout.ts';
import { detectPaymentMethod } from './payment.ts';
import { receiptItems } from './receipt-items.ts';
import { chooseReceiptTotals } from './receipt-totals.ts';
import { pickMerchant } from './receipt-merchant.ts';
import { receiptEvidence } from './receipt-evidence.ts';

const L = (re: RegExp, weight: number): Label => ({ re, weight });

const TIP = [L(/\b(tip|tips|gratuity|trinkgeld|pourboire|dzeramnauda)\b/i, 3)];
const DATE_LABELS = [L(/\b(date|datums|tarikh|datum|dated)\b\s*[:.]?/i, 2)];

/**
 * A date glued to the time after it ("19/03/20181:01:43 PM", "25/Mar/20170743:54" with a colon lost too): OCR lost
 * the space.
 */
const DATE_THEN_TIME = /(\d{1,2}[./-](?:\d{1,2}|\p{L}{3,9})[./-](?:19|20)\d{2})(?=\d{1,4}[:.]\d{2}\b)/gu;
/**
 * A labelled date whose slashes OCR read as 1 or 7 or lost ("DATE: 140372019" for 14/03/2019): day, month and a
 * 20xx year around them, only right after a date label.
 */
const SLASHES_AS_DIGITS = /\b(date|datums|tarikh|datum)(\s*[:.]?\s*)(0[1-9]|[12]\d|3[01])[17]?(0[1-9]|1[0-2])[17](20\d{2})(?!\d)/gi;
/** Month names with a zero for the letter O ("0ct 3, 2016", "N0v"). */
const ZERO_MONTH = /\b0(?=ct\b|kt\b)|(?<=\bN)0(?=v\b)/gi;

/** Dates on OCR'd receipt text: the usual formats, after undoing the OCR slips above. */
function receiptDateFinder(dayFirst: boolean | undefined) {
  const find = dateFinder({ dayFirst });
  return (text: string) => find(text.replace(DATE_THEN_TIME, '$1 ').replace(ZERO_MONTH, 'O').replace(SLASHES_AS_DIGITS, '$1$2$3/$4/$5'));
}

const pct = (c: Candidate<unknown> | null | undefined, base: number, bonus = 0) =>
  c ? Math.max(1, Math.round(Math.min(99, base + Math.min(c.score, 5) * 7 + bonus) * (c.ocr / 100))) : 0;

export function extractReceiptFields(pages: PageText[]): ExtractedReceiptFields {
  const lines = documentLines(pages);
  const text = lines.map((l) => l.text).join('\n');
  const dec = detectDecimalSeparator(text);
  const dayFirst = inferDayFirst(text);
  const find = amountFinder(dec);
  const merchant = pickMerchant(lines);
  const findDate = receiptDateFinder(dayFirst);
  const dates = rank(labelled(lines, DATE_LABELS, findDate));
  const anyDate = lines.flatMap((l) => findDate(l.text).map((d) => ({ value: d.value, score: 0.8, line: l, ocr: l.confidence, at: 0, via: 'free' as const })));
  const thisYear = new Date().getUTCFullYear();
  const date = [...dates, ...anyDate].find((d) => Number(d.value.slice(0, 4)) >= 2000 && Number(d.value.slice(0, 4)) <= thisYear + 1) ?? null;
  const { total, subtotal: sub, tax } = chooseReceiptTotals(lines, dec);
  const tip = rank(labelled(lines, TIP, find, { below: false })).find((c) => c.value > 0 && (!total || c.value < total.value)) ?? null;
  const sumOk = Boolean(total && sub && tax && Math.abs(sub.value + tax.value + (tip?.value ?? 0) - total.value) < 0.02);
  const currency = detectCurrency(text);
  const lineItems = receiptItems(lines, total?.via === 'free' ? null : (total?.line ?? null), dec);
  const fieldConfidences = {
    merchantName: merchant.confidence,
    receiptDate: pct(date, 35),
    subtotal: pct(sub, 25, sumOk ? 20 : 0),
    tax: pct(tax, 25, sumOk ? 20 : 0),
    tip: pct(tip, 30),
    total: pct(total, 30, sumOk ? 20 : 0),
    currency: currency.confidence,
    lineItems: lineItems.length ? Math.round((30 * (lines[0]?.confidence ?? 0)) / 100) : 0,
  };
  const confidence = Math.round((fieldConfidences.merchantName + fieldConfidences.receiptDate + fieldConfidences.total * 2) / 4);
  const fields = {
    merchantName: merchant.name,
    receiptDate: date?.value ?? null,
    subtotal: sub?.value ?? null,
    tax: tax?.value ?? null,
    tip: tip?.value ?? null,
    total: total?.value ?? null,
    currency: currency.currency,
    paymentMethod: detectPaymentMethod(text),
    lineItems,
    confidence,
    fieldConfidences,
  };
  // Where each value was read: the candidates chosen above, found again on their lines.
  const picks = { merchantLine: merchant.line ?? null, date, subtotal: sub, tax, tip, total };
  return { ...fields, evidence: receiptEvidence(pages, lines, picks, fields, { dec, dayFirst, dates: findDate }) };
}
