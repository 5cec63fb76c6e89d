// Receipt total, subtotal and tax: labelled candidates cross-checked against subtotal + tax (+ rounding),
// cash − change, repeated amounts and the item amounts above them (a total is never below an item).
import { findAmounts, fixOcrDigits, type DecimalSeparator } from './amounts.ts';
import { stripAccents } from './dates.ts';
import { labelled, rank, type Candidate, type Label } from './labels.ts';
import type { Line } from './layout.ts';

const L = (re: RegExp, weight: number): Label => ({ re, weight });

// Receipt labels (English, French, German, Latvian, Malay till slips); invoices read labels from ../lang.
export const SUBTOTAL_LABELS: Label[] = [
  L(
    /\b(sub-?\s?total|total ht|montant ht|total h\.t\.?|total net|net total|net amount|total excl\.?(?: vat| tax)?|zwischensumme|nettobetrag|rechnungssumme netto|summe netto|netto(?:summe|betrag)?|warenwert|base ht|total hors taxes?|summa bez pvn|excluding (?:vat|gst|tax))\b/i,
    3,
  ),
];
export const TAX_LABELS: Label[] = [
  L(
    /(?<!\b(?:bez|ar)[\s-]?)\b(total tva|montant tva|tva|vat|mwst|ust|umsatzsteuer|mehrwertsteuer|sales tax|tax|gst|sst|pvn|service tax)\b(?!\s*(reg|no|nr|id|number|n°|ident|-?idnr|registration|code|clause|exempt|%\s*\d))/i,
    2.5,
  ),
];

/** A word whose letters OCR may have split apart ("Tota l", "CHA NGE"): letters with optional single spaces. */
const spaced = (word: string) => word.split('').join('\\s?');
/** Latvian PVN (VAT) as OCR often reads it (PUN, PYN). */
const VAT_LV = 'p[vuy]n';
/** "total" and common OCR misreadings of it (tatal, totsl, toial), also split apart ("Tota l", "T o ta l"). */
const TOTAL = 't\\s?[o0a]\\s?[tli1]\\s?[ae4s]\\s?[li1!]';
const NOT_TOTAL = '(?!\\s*(qty|quantity|items?|excl|ex\\.|discount|savings?|gst|sst|vat|pvn|tax|before|\\(excl|saved|nett?o?\\b|atlaide))';
export const RECEIPT_TOTALS: Label[] = [
  L(
    new RegExp(
      `(?<!\\bin\\s)\\b(grand ${TOTAL}|net ${TOTAL}|nett ${TOTAL}|${TOTAL} (?:amt |amount )?(?:amount|sales|payable|due|rounded)|${TOTAL} \\(?incl\\.?(?:uding|usive)? ?(?:of )?(?:gst|sst|vat|tax)?\\)?|${TOTAL} after rounding|rounded ${TOTAL}|amount due|amount payable|balance due|^\\s*due|k[o0]p[aā] apmaksai|k[o0]p[aā]|apmaksai|s[uv][mhn]{2}a apmaksai|jumlah|${TOTAL} rm|${TOTAL} eur|ar ${VAT_LV})\\b${NOT_TOTAL}`,
      'i',
    ),
    3,
  ),
  // Not "sub total", not "GST included in total".
  L(new RegExp(`(?<!sub[\\s-]?|\\bin\\s)\\b(${TOTAL}|s[uv][mhn]{2}a|kopsumma|totaal|gesamt|summe|montant)(?![a-z\\d])${NOT_TOTAL}`, 'i'), 2.2),
];
const RECEIPT_SUBTOTALS: Label[] = [...SUBTOTAL_LABELS, L(new RegExp(`\\bbez ${VAT_LV}\\b`, 'i'), 3)];
const RECEIPT_TAXES: Label[] = [...TAX_LABELS, L(new RegExp(`(?<!\\b(?:bez|ar)[\\s-]?)\\bp[uy]n\\b(?!\\s*(lv|reg|nr))`, 'i'), 2.5)];
const ROUNDING = [L(new RegExp(`\\b(${spaced('rounding')}|round(?:ing)? adj\\w*|noapa[lļ]o[sš]ana|pembundaran)\\b`, 'i'), 1)];
const DISCOUNT = [L(/\b(discount|disc\.?|diskaun|atlaide|rabatt|remise|savings?)\b/i, 1)];
const SERVICE = [L(/\b(service charge|svc chg|serv(?:ice)? chg|caj perkhidmatan|service)\b(?!\s*tax)/i, 1)];
export const CASH = new RegExp(
  `\\b(${spaced('cash')}|casn|tunai|skaidra nauda|skaidri|sanemts|saņemts|samaksats|bar|tendered|tender|paid|payment|received)\\b`,
  'i',
);
export const CHANGE = new RegExp(`\\b(${spaced('change')}|baki|atlikums|izdots|atdots|rückgeld|rendu)\\b`, 'i');
/** A table's column header ("DESCRIPTION QTY PRICE TOTAL"): its "total" labels a column, not an amount. */
export const TABLE_HEADER =
  /\b(qty|qte|quantity|price|p\.\s?u\.?|u\.?\s?p\.?|unit|description|designation|item|amount|amt|daudz|cena)\b.*\b(qty|qte|quantity|price|p\.\s?u\.?|u\.?\s?p\.?|unit|total|amount|amt|summa|cena)\b/i;
/** Lines that are not items (totals, taxes, payment, header data). */
export const NOT_ITEM =
  /\b(total|sub-?total|summa|kop[āa]|apmaksai|gst|sst|vat|pvn|tax|cash|change|tunai|nauda|rounding|round|card|karte|visa|master|balance|tendered|paid|invoice|receipt|tel|date|datums|time|laiks|no\.|qty|item\(s\)|čeks|kvīts|atlaide)\b/i;

/** A tax rate printed between a label and its amount ("PVN-A 21.00% 0.49", OCR "21. 007"): not an amount. */
const LEADING_RATE = /^([\s:@-]*(?:[A-Z](?=\s))?[\s@]*)(\d{1,2}(?:[.,]\s?0{1,2}\s?[%7]?|\s?%))(?=\s+\S*\d)/i;

/** A rate whose "%" OCR read as "7" ("21.007"). */
const RATE_7 = /(?<![\d.,])[1-9]\d?[.,]\s?007(?![\d.,])/g;
/** A currency prefix glued to an amount and misread ("fM3.00" for "RM3.00"). */
const GLUED_PREFIX = /(?<![\w.,])[A-Za-z£€$]{1,2}(?=\d+[.,]\s?\d{2}(?![\d.,]))/g;
/** The last number pair "9 59" of a text: whole units and two-digit cents split by a space. */
const SPACE_DECIMAL = /(?<![\d.,])(\d{1,4}) (\d{2})(?![\d.,])(?!.*\d)/;
const blank = (m: string) => ' '.repeat(m.length);

/** Receipt amounts after a label: tax rates skipped; whole numbers only when the text has no decimal amount. */
export const receiptAmountFinder =
  (dec?: DecimalSeparator) =>
  (text: string): { value: number; index: number; length: number; plain: boolean }[] => {
    const rate = text.match(LEADING_RATE);
    const t = (rate ? rate[1]! + blank(rate[2]!) + text.slice(rate[0].length) : text).replace(RATE_7, blank).replace(GLUED_PREFIX, blank);
    let all = findAmounts(t, dec);
    // No decimal amount at all: OCR may have read the decimal point as a space ("KOPA EUR 9 59").
    if (!all.some((a) => a.hasDecimals) && SPACE_DECIMAL.test(t)) all = findAmounts(t.replace(SPACE_DECIMAL, `$1${dec ?? '.'}$2`), dec);
    const money = all.filter((a) => a.hasDecimals);
    return (money.length ? money : all).map((a) => ({ ...a, plain: !a.hasDecimals }));
  };

/** A candidate read from a whole number ("50", not "50.00"): on a receipt often a misread amount or a count. */
const isPlain = (c: Candidate<number>) => c.via !== 'free' && !/^\D{0,3}\d[\d.,]*[.,]\s?\d{2}/.test(fixOcrDigits(c.line.text.slice(c.at, c.at + 16)));
const round2 = (n: number) => Math.round(n * 100) / 100;
const near = (a: number, b: number) => Math.abs(a - b) < 0.005;

/**
 * Cash tendered − change given (null without both), and whether any change was given. Both must be printed as money
 * (two decimals): a change amount OCR cut short ("32.5", "32.") would make a wrong total look corroborated.
 */
function cashMinusChange(lines: Line[], dec?: DecimalSeparator): { paid: number | null; changeGiven: boolean } {
  const find = receiptAmountFinder(dec);
  const cash = rank(labelled(lines, [L(CASH, 1)], find, { below: false }))[0];
  const change = rank(labelled(lines, [L(CHANGE, 1)], find, { below: false }))[0];
  const changeGiven = Boolean(change && change.value > 0);
  if (!cash || !change || change.value < 0 || change.value >= cash.value || isPlain(cash) || isPlain(change)) return { paid: null, changeGiven };
  return { paid: round2(cash.value - change.value), changeGiven };
}

/**
 * A total label alone on its line takes the right-most amount of the next line ("TOTAL" / "CASH RM 6.00");
 * a cash line only when no change was given (otherwise it holds the amount tendered).
 */
function nextLineTotals(lines: Line[], changeGiven: boolean, dec?: DecimalSeparator): Candidate<number>[] {
  const find = receiptAmountFinder(dec);
  const out: Candidate<number>[] = [];
  lines.forEach((line, i) => {
    const label = TABLE_HEADER.test(line.text) ? undefined : RECEIPT_TOTALS.find((l) => l.re.test(line.text));
    const next = lines[i + 1];
    if (!label || !next || next.page !== line.page || findAmounts(line.text, dec).length) return;
    if (changeGiven && CASH.test(next.text)) return;
    if (next.y - (line.y + line.height) > line.height * 1.5) return;
    const v = find(next.text)
      .filter((a) => !a.plain)
      .pop();
    if (v) out.push({ value: v.value, score: label.weight * 0.6, line: next, ocr: next.confidence, at: v.index, via: 'below' });
  });
  return out;
}

/** Largest item amount above a line (last amount of lines that are not totals, taxes or payments), less the largest discount. */
function maxItemAbove(lines: Line[], before: number, dec?: DecimalSeparator): number {
  let max = 0;
  let discount = 0;
  for (const line of lines.slice(0, before)) {
    const amounts = findAmounts(line.text, dec).filter((a) => a.hasDecimals);
    for (const a of amounts) if (a.value < 0) discount = Math.max(discount, -a.value);
    if (NOT_ITEM.test(stripAccents(line.text))) continue;
    const last = amounts.pop();
    if (last && last.value > max && last.value < 100000) max = last.value;
  }
  return max - discount;
}

export interface ReceiptTotals {
  total: Candidate<number> | null;
  subtotal: Candidate<number> | null;
  tax: Candidate<number> | null;
  /** subtotal + tax (+ rounding) ≈ total held. */
  sumOk: boolean;
}

interface Sum {
  value: number;
  sub: Candidate<number>;
  tax: Candidate<number> | null;
  /** How many printed adjustments (tax, service, discount, rounding) it combines: more is stronger evidence. */
  parts: number;
}

/** The best-ranked labelled amount of each kind (or none). */
const firstOf = (cands: Candidate<number>[], ok: (c: Candidate<number>) => boolean) => cands.find(ok) ?? null;

/**
 * subtotal + tax (+ service) − discount (+ rounding) for plausible combinations: tax and service below ~35% of the
 * subtotal, a discount below it.
 */
function subtotalSums(
  lines: Line[],
  find: ReturnType<typeof receiptAmountFinder>,
  rounding: number,
): { subs: Candidate<number>[]; taxes: Candidate<number>[]; sums: Sum[] } {
  const top = (labels: Label[]) => rank(labelled(lines, labels, find)).slice(0, 5);
  const money = (c: Candidate<number>) => !isPlain(c);
  // A label alone on its line reads the amount below it, but a payment line below is no subtotal.
  const paymentBelow = (c: Candidate<number>) => c.via === 'below' && (CASH.test(c.line.text) || CHANGE.test(c.line.text));
  const subs = top(RECEIPT_SUBTOTALS).filter((c) => c.value > 0 && money(c) && !paymentBelow(c));
  const taxes = top(RECEIPT_TAXES).filter((c) => c.value >= 0);
  const service = firstOf(rank(labelled(lines, SERVICE, find, { below: false })), (c) => c.value > 0 && money(c));
  const discount = firstOf(rank(labelled(lines, DISCOUNT, find, { below: false })), (c) => c.value !== 0 && money(c));
  const sums: Sum[] = [];
  for (const sub of subs) {
    const svc = service && service.value < sub.value * 0.35 && service.line !== sub.line ? service.value : 0;
    const disc = discount && Math.abs(discount.value) < sub.value && discount.line !== sub.line ? Math.abs(discount.value) : 0;
    const taxOptions = [null, ...taxes.filter((t) => t.value > 0 && t.value < sub.value * 0.35 && t.line !== sub.line && money(t))];
    for (const tax of taxOptions) {
      const base = sub.value + (tax?.value ?? 0) + svc - disc;
      const parts = (tax ? 1 : 0) + (svc ? 1 : 0) + (disc ? 1 : 0);
      if (rounding) sums.push({ value: round2(base + rounding), sub, tax, parts: parts + 1 });
      sums.push({ value: round2(base), sub, tax, parts });
    }
  }
  return { subs, taxes, sums };
}

/** Picks the total with the most corroboration; subtotal and tax agreeing with it when a pair does. */
export function chooseReceiptTotals(lines: Line[], dec?: DecimalSeparator): ReceiptTotals {
  const find = receiptAmountFinder(dec);
  const rounding = rank(labelled(lines, ROUNDING, find, { below: false })).find((c) => Math.abs(c.value) < 0.1)?.value ?? 0;
  const { subs, taxes, sums } = subtotalSums(lines, find, rounding);
  const { paid, changeGiven } = cashMinusChange(lines, dec);
  // A lone total label's amount below it is not the cash tendered when change was given.
  const labelledTotals = rank([
    ...labelled(lines, RECEIPT_TOTALS, find, { exclude: TABLE_HEADER }).filter((c) => c.via !== 'below' || !changeGiven || !CASH.test(c.line.text)),
    ...nextLineTotals(lines, changeGiven, dec),
  ]);
  const derived = sums
    .filter((s) => s.parts > 0)
    .map((s) => ({
      value: s.value,
      score: Math.min(s.sub.score, s.tax?.score ?? s.sub.score) * 0.5 + s.parts * 0.1,
      line: s.tax?.line ?? s.sub.line,
      ocr: Math.min(s.sub.ocr, s.tax?.ocr ?? 100),
      at: 0,
      via: 'free' as const,
    }));
  // What was paid (cash tendered − change) is the total itself when the receipt shows both.
  const fromPaid = paid !== null ? [{ value: paid, score: 1.2, line: lines[lines.length - 1]!, ocr: 60, at: 0, via: 'free' as const }] : [];
  const cands = rank([...labelledTotals, ...derived, ...fromPaid]).filter((c) => c.value > 0 && c.value < 100000);
  const amountsEverywhere = lines.flatMap((l) =>
    findAmounts(l.text, dec)
      .filter((a) => a.hasDecimals)
      .map((a) => a.value),
  );
  for (const c of cands) {
    const isLabelled = labelledTotals.some((t) => near(t.value, c.value));
    // Paid = the total (or the total after its rounding adjustment): corroborates a printed total.
    const sum = sums.find((s) => near(s.value, c.value));
    if (paid !== null && near(c.value, paid)) c.score += isLabelled || (sum && sum.parts > 0) ? 3 : 1;
    // The rounding line's sign is often lost in OCR ("RM 0.02" for -0.02): either sign corroborates.
    else if (paid !== null && rounding && isLabelled && (near(round2(c.value + rounding), paid) || near(round2(c.value - rounding), paid))) c.score += 2;
    if (isLabelled && sum) c.score += sum.parts > 0 ? 3 : 1.5;
    // Two printed totals around a rounding line: the one after it is the one paid.
    if (rounding && isLabelled && labelledTotals.some((o) => near(o.value, round2(c.value - rounding)))) c.score += 1;
    const repeats = amountsEverywhere.filter((v) => near(v, c.value)).length - (isLabelled ? 1 : 0);
    c.score += Math.min(2, repeats * 0.7);
    c.score += (c.line.index / Math.max(1, lines.length)) * 0.5;
    if (/round/i.test(c.line.text) && !/total|after|rounded/i.test(c.line.text)) c.score -= 3;
    if (c.value + 0.01 < maxItemAbove(lines, c.line.index, dec)) c.score -= 2.5;
    if (isPlain(c) && amountsEverywhere.length >= 2) c.score *= 0.5;
  }
  cands.sort((a, b) => b.score - a.score);
  let total: Candidate<number> | null = cands[0] ?? null;
  if (!total) total = largestLowAmount(lines, [...RECEIPT_SUBTOTALS, ...RECEIPT_TAXES], dec);
  const pair = total ? sums.find((s) => near(s.value, total.value) && s.tax) : undefined;
  const subtotal = pair?.sub ?? subs.find((c) => !total || c.value <= total.value + 0.01) ?? null;
  const tax = pair?.tax ?? taxes.find((c) => !total || c.value < total.value) ?? null;
  return { total, subtotal, tax, sumOk: Boolean(pair) };
}

/** Fallback: the largest amount in the lower part, skipping cash tendered / change and subtotal / tax lines. */
function largestLowAmount(lines: Line[], skip: Label[], dec?: DecimalSeparator): Candidate<number> | null {
  let best: Candidate<number> | null = null;
  for (const line of lines.slice(Math.floor(lines.length * 0.3))) {
    if (CASH.test(line.text) || CHANGE.test(line.text) || skip.some((l) => l.re.test(line.text))) continue;
    for (const a of findAmounts(line.text, dec))
      if (a.hasDecimals && a.value > 0 && a.value < 10000 && (!best || a.value > best.value))
        best = { value: a.value, score: 0.5, line, ocr: line.confidence, at: a.index, via: 'free' };
  }
  return best;
}
