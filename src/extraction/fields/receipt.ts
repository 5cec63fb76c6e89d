// Receipt fields from (usually OCR'd) pages: merchant, date, totals, tip, currency, payment method, items.
import type { ExtractedLineItem, ExtractedReceiptFields, PageText } from '../types.ts';
import { detectDecimalSeparator, findAmounts, type DecimalSeparator } from './amounts.ts';
import { detectCurrency } from './currency.ts';
import { inferDayFirst, stripAccents } from './dates.ts';
import { amountFinder, dateFinder, labelled, rank, type Candidate, type Label } from './labels.ts';
import { documentLines, type Line } from './layout.ts';
import { detectPaymentMethod } from './payment.ts';
import { SUBTOTAL_LABELS, TAX_LABELS } from './totals.ts';
import { pickName } from './vendor.ts';

const L = (re: RegExp, weight: number): Label => ({ re, weight });

const RECEIPT_TOTALS: Label[] = [
  L(/\b(grand total|net total|total (?:amount|sales|payable|due)|total \(?incl\.?(?:uding)? ?(?:gst|sst|vat|tax)?\)?|total after rounding|rounded total|amount due|k[o0]p[aā] apmaksai|k[o0]p[aā]|apmaksai|s[uv][mhn]{2}a apmaksai|jumlah|total rm|total eur)\b/i, 3),
  L(/\b(total|t[o0]tal|s[uv][mhn]{2}a|kopsumma|totaal|gesamt|summe|montant)\b(?!\s*(qty|quantity|items?|excl|ex\.|discount|savings|gst|sst|vat|pvn|tax|before|\(excl|saved|nett?o?\b))/i, 2.2),
];
const CASH = /\b(cash|tunai|skaidra nauda|skaidri|sanemts|saņemts|samaksats|bar|tendered|paid)\b/i;
const CHANGE = /\b(change|baki|atlikums|izdots|atdots|rückgeld|rendu)\b/i;
const TIP = [L(/\b(tip|tips|gratuity|trinkgeld|pourboire|dzeramnauda)\b/i, 3)];
const DATE_LABELS = [L(/\b(date|datums|tarikh|datum|dated)\b\s*[:.]?/i, 2)];
const NOT_ITEM = /\b(total|sub-?total|summa|kop[āa]|apmaksai|gst|sst|vat|pvn|tax|cash|change|tunai|rounding|round|card|karte|visa|master|balance|tendered|paid|invoice|receipt|tel|date|datums|time|laiks|no\.|qty|item\(s\)|čeks|kvīts|atlaide)\b/i;

function cashMinusChange(lines: Line[], dec?: DecimalSeparator): number | null {
  const find = amountFinder(dec);
  const cash = rank(labelled(lines, [L(CASH, 1)], find, { below: false }))[0];
  const change = rank(labelled(lines, [L(CHANGE, 1)], find, { below: false }))[0];
  if (!cash || !change || change.value < 0 || change.value >= cash.value) return null;
  return Math.round((cash.value - change.value) * 100) / 100;
}

function chooseTotal(lines: Line[], dec?: DecimalSeparator): Candidate<number> | null {
  const find = amountFinder(dec);
  const cands = rank(labelled(lines, RECEIPT_TOTALS, find).filter((c) => c.value > 0 && c.value < 100000));
  const paid = cashMinusChange(lines, dec);
  const amountsEverywhere = lines.flatMap((l) => findAmounts(l.text, dec).filter((a) => a.hasDecimals).map((a) => a.value));
  for (const c of cands) {
    if (paid !== null && Math.abs(c.value - paid) < 0.005) c.score += 3;
    const repeats = amountsEverywhere.filter((v) => Math.abs(v - c.value) < 0.005).length;
    c.score += Math.min(2, (repeats - 1) * 0.7);
    c.score += (c.line.index / Math.max(1, lines.length)) * 0.5;
    if (/round/i.test(c.line.text) && !/total|after/i.test(c.line.text)) c.score -= 3;
  }
  cands.sort((a, b) => b.score - a.score);
  if (cands[0]) return cands[0];
  if (paid !== null) return { value: paid, score: 1.5, line: lines[lines.length - 1]!, ocr: 60, at: 0, via: 'free' };
  // Fallback: the largest amount in the lower part, skipping cash tendered / change lines.
  let best: Candidate<number> | null = null;
  for (const line of lines.slice(Math.floor(lines.length * 0.3))) {
    if (CASH.test(line.text) || CHANGE.test(line.text)) continue;
    for (const a of findAmounts(line.text, dec))
      if (a.hasDecimals && a.value > 0 && a.value < 10000 && (!best || a.value > best.value))
        best = { value: a.value, score: 0.5, line, ocr: line.confidence, at: a.index, via: 'free' };
  }
  return best;
}

function receiptItems(lines: Line[], totalLine: Line | null, dec?: DecimalSeparator): ExtractedLineItem[] {
  const end = totalLine ? totalLine.index : lines.length;
  const items: ExtractedLineItem[] = [];
  for (const line of lines.slice(3, end)) {
    const t = stripAccents(line.text);
    if (NOT_ITEM.test(t)) continue;
    const amounts = findAmounts(line.text, dec).filter((a) => a.hasDecimals);
    const last = amounts[amounts.length - 1];
    if (!last) continue;
    const desc = line.text.slice(0, amounts[0]!.index).replace(/[^\p{L}\p{N}\s.,&'"/%-]+/gu, ' ').replace(/\s+/g, ' ').trim();
    if (desc.replace(/[^\p{L}]/gu, '').length < 3) continue;
    const qx = line.text.match(/(\d+(?:[.,]\d+)?)\s*[xX*]\s*(\d+[.,]\d{2})/);
    items.push({
      description: desc.replace(/(\d+(?:[.,]\d+)?)\s*[xX*]\s*$/, '').trim() || null,
      sku: null,
      quantity: qx ? Number(qx[1]!.replace(',', '.')) : null,
      unit: null,
      unitPrice: qx ? Number(qx[2]!.replace(',', '.')) : amounts.length > 1 ? amounts[amounts.length - 2]!.value : null,
      total: last.value,
    });
  }
  return items;
}

const pct = (c: Candidate<unknown> | null | undefined, base: number, bonus = 0) =>
  c ? Math.max(1, Math.round(Math.min(99, base + Math.min(c.score, 5) * 7 + bonus) * (c.ocr / 100))) : 0;

export function extractReceiptFields(pages: PageText[]): ExtractedReceiptFields {
  const lines = documentLines(pages);
  const text = lines.map((l) => l.text).join('\n');
  const dec = detectDecimalSeparator(text);
  const dayFirst = inferDayFirst(text);
  const find = amountFinder(dec);
  const merchant = pickName(lines, 'receipt');
  const dates = rank(labelled(lines, DATE_LABELS, dateFinder({ dayFirst })));
  const anyDate = lines.flatMap((l) => dateFinder({ dayFirst })(l.text).map((d) => ({ value: d.value, score: 0.8, line: l, ocr: l.confidence, at: 0, via: 'free' as const })));
  const thisYear = new Date().getUTCFullYear();
  const date = [...dates, ...anyDate].find((d) => Number(d.value.slice(0, 4)) >= 2000 && Number(d.value.slice(0, 4)) <= thisYear + 1) ?? null;
  const total = chooseTotal(lines, dec);
  const sub = rank(labelled(lines, SUBTOTAL_LABELS, find)).find((c) => !total || c.value <= total.value + 0.01) ?? null;
  const tax = rank(labelled(lines, TAX_LABELS, find)).find((c) => c.value >= 0 && (!total || c.value < total.value)) ?? null;
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
    lineItems: lineItems.length ? Math.round(30 * (lines[0]?.confidence ?? 0) / 100) : 0,
  };
  const confidence = Math.round((fieldConfidences.merchantName + fieldConfidences.receiptDate + fieldConfidences.total * 2) / 4);
  return {
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
}
