// Line items from a table: header row → columns by x → rows anchored on an amount in the amount column.
import type { ExtractedLineItem } from '../types.ts';
import { findAmounts, type DecimalSeparator } from './amounts.ts';
import { stripAccents } from './dates.ts';
import { spanX, type Line } from './layout.ts';

type Kind = 'description' | 'quantity' | 'unit' | 'unitPrice' | 'amount' | 'sku' | 'other';
interface Column {
  kind: Kind;
  x0: number;
  x1: number;
}

const HEADERS: [Kind, RegExp][] = [
  ['unitPrice', /\b(unit ?price|price ?per ?unit|p\.?\s?u\.?(?: ht)?|prix unit\w*|einzelpreis|preis|rate|price|cena)\b/i],
  ['amount', /\b(line amount|amount|line total|total ht|total|montant(?: ht)?|betrag|gesamtpreis|gesamt|summe|net amount|summa|ext\.? price)\b/i],
  ['quantity', /\b(qty|quantity|qte|quantite|menge|anzahl|daudz\w*|stk|pcs)\b/i],
  ['unit', /\b(unit|unite|einheit|me|uom)\b/i],
  ['sku', /\b(sku|code article|article code|item (?:no|code)|art\.?-?nr\.?|artikelnr\.?|artikelnummer|code|ref(?:erence)?|no\.)(?!\w)/i],
  ['description', /(description|d[ée]signation|libell[ée]|beschreibung|bezeichnung|artikel|leistung|item|product|produit|nom|nosaukums|prece)/i],
  ['other', /\b(vat|tva|mwst|ust|tax|remise|rabatt|discount|date|datum|pos\.?|ligne|line|charge)\b/i],
];
const STOP = /\b(sub-?total|zwischensumme|total (?:ht|ttc|tva|net)|rechnungssumme|summe|gesamtbetrag|nettobetrag|d[ée]tail tva|vat (?:summary|breakdown)|tax summary|amount due|net a payer|total)\b/i;
const ALLOWANCE = /^\s*(remise|charge|rabatt|zuschlag|discount|allowance|surcharge)\s*:/i;
const DETAIL = /^(p[ée]riode|period|date|zeitraum|#|gtin|sku|ean|c_\w+|\(brut)|\d{2}[./]\d{2}[./]\d{2,4}/i;
const DOC_LEVEL = /\d+(?:[.,]\d+)?\s?%\s*(sur|of|von|on|auf)\b/i;

function headerColumns(line: Line): Column[] {
  const text = stripAccents(line.text);
  const found: { kind: Kind; s: number; e: number }[] = [];
  for (const [kind, re] of HEADERS) {
    for (const m of text.matchAll(new RegExp(re.source, 'gi'))) {
      const s = m.index;
      const e = s + m[0].length;
      if (found.some((f) => s < f.e && f.s < e)) continue;
      found.push({ kind, s, e });
    }
  }
  found.sort((a, b) => a.s - b.s);
  const segStart = (i: number) => text.lastIndexOf('   ', i);
  const segEnd = (i: number) => (text.indexOf('   ', i) < 0 ? text.length : text.indexOf('   ', i));
  const kept = found.filter((f, k) => !(f.kind === 'other' && found.slice(0, k).some((p) => p.kind !== 'other' && segStart(p.s) === segStart(f.s))));
  // "Item" / "Item #" beside a separate "Description" column holds item codes.
  if (kept.filter((f) => f.kind === 'description').length > 1) {
    for (const f of kept) if (f.kind === 'description' && /^item\s*(#|no\.?|number)?$/i.test(text.slice(f.s, segEnd(f.s)).trim())) f.kind = 'sku';
  }
  return kept.map((f, k) => {
    const next = kept[k + 1];
    const end = next && segStart(next.s) === segStart(f.s) ? f.e : segEnd(f.s);
    const x = spanX(line, f.s, Math.max(f.e, end));
    return { kind: f.kind, x0: x.x0, x1: x.x1 };
  });
}

const score = (cols: Column[]) => new Set(cols.filter((c) => c.kind !== 'other').map((c) => c.kind)).size;

/** Finds the header: the line (plus the lines just around it) with the most column kinds, needing amount + one more. */
function findHeader(lines: Line[]): { cols: Column[]; end: number } | null {
  let best: { cols: Column[]; end: number } | null = null;
  lines.forEach((line, i) => {
    if (findAmounts(line.text).some((a) => a.hasDecimals)) return;
    let cols = headerColumns(line);
    if (score(cols) < 2) return;
    let end = i;
    for (let j = i + 1; j < lines.length && j <= i + 4; j++) {
      const l = lines[j]!;
      if (l.page !== line.page || l.y - (line.y + line.height) > line.height * 1.5 || findAmounts(l.text).some((a) => a.hasDecimals)) break;
      const more = headerColumns(l).filter((c) => !cols.some((o) => o.kind === c.kind));
      if (!more.length) break;
      cols = [...cols, ...more];
      end = j;
    }
    for (let j = i - 1; j >= 0 && j >= i - 3; j--) {
      const l = lines[j]!;
      if (l.page !== line.page || line.y - (l.y + l.height) > line.height * 1.5 || findAmounts(l.text).some((a) => a.hasDecimals)) break;
      const more = headerColumns(l).filter((c) => c.kind !== 'other' && !cols.some((o) => o.kind === c.kind));
      if (!more.length) break;
      cols = [...cols, ...more];
    }
    if (!cols.some((c) => c.kind === 'amount' || c.kind === 'unitPrice')) return;
    if (!best || score(cols) > score(best.cols)) best = { cols, end };
  });
  return best;
}

function nearest(cols: Column[], x0: number, x1: number): Column | undefined {
  let best: Column | undefined;
  let bestD = Infinity;
  const c = (x0 + x1) / 2;
  for (const col of cols) {
    const d = c < col.x0 ? col.x0 - c : c > col.x1 ? c - col.x1 : 0;
    const dr = Math.min(Math.abs(x1 - col.x1), d); // numbers are right-aligned under their header
    if (Math.min(d, dr) < bestD) [best, bestD] = [col, Math.min(d, dr)];
  }
  return best;
}

/**
 * Extracts table rows; descriptions may span several lines around the amount row. A table continues on the
 * following pages (under a repeated header, or in the same columns) until the totals block.
 */
export function extractLineItems(lines: Line[], dec?: DecimalSeparator): ExtractedLineItem[] {
  const first = findHeader(lines);
  if (!first) return [];
  const items: (ExtractedLineItem & { y: number })[] = [];
  const loose: { text: string; y: number }[] = [];
  let header = first;
  let start = first.end + 1;
  const headerPage = lines[first.end]!.page;
  const pages = [...new Set(lines.map((l) => l.page))].filter((p) => p >= headerPage);
  for (const [k, page] of pages.entries()) {
    if (k > 0) {
      const pageLines = lines.filter((l) => l.page === page);
      const repeated = findHeader(pageLines);
      if (repeated) header = { cols: repeated.cols, end: pageLines[repeated.end]!.index };
      start = repeated ? lines.findIndex((l) => l.index === header.end) + 1 : lines.findIndex((l) => l.page === page);
    }
    // Page offsets keep rows of later pages after those of earlier ones.
    const ended = readRows(lines, start, page, header.cols, dec, page * 1e6, items, loose);
    if (ended) break;
  }
  return attachDescriptions(items, loose);
}

/** Reads the rows of one page's table into `items`; true when the table ended (a totals line). */
function readRows(
  lines: Line[],
  start: number,
  page: number,
  cols: Column[],
  dec: DecimalSeparator | undefined,
  yOffset: number,
  items: (ExtractedLineItem & { y: number })[],
  loose: { text: string; y: number }[],
): boolean {
  const descCol = cols.find((c) => c.kind === 'description');
  const leftLimit = Math.min(...cols.filter((c) => ['quantity', 'unitPrice', 'amount', 'unit'].includes(c.kind)).map((c) => c.x0));
  for (let i = start; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.page !== page) return false;
    if (STOP.test(stripAccents(line.text)) && !descCol) return true;
    if (STOP.test(line.text) && findAmounts(line.text, dec).length && !DOC_LEVEL.test(line.text)) return true;
    if (/d[ée]tail tva|vat summary/i.test(line.text)) return true;
    const row: Partial<Record<Kind, string>> = {};
    const nums: Partial<Record<Kind, number>> = {};
    for (const w of line.words) {
      const col = nearest(cols, w.x, w.x + w.width);
      if (!col) continue;
      const kind: Kind = !descCol && w.x + w.width < leftLimit && col.kind !== 'sku' ? 'description' : col.kind;
      row[kind] = row[kind] ? `${row[kind]} ${w.text}` : w.text;
    }
    for (const kind of ['amount', 'unitPrice', 'quantity'] as Kind[]) {
      const a = row[kind] ? findAmounts(row[kind]!, dec) : [];
      if (a.length) nums[kind] = a[a.length - 1]!.value;
    }
    const hasAmount = nums.amount !== undefined && (row.amount ?? '').match(/\d/) && findAmounts(row.amount ?? '', dec).some((a) => a.hasDecimals);
    if (ALLOWANCE.test(row.description ?? '')) continue;
    if (!hasAmount || DOC_LEVEL.test(line.text)) {
      const desc = (row.description ?? '').trim();
      if (desc && !DOC_LEVEL.test(line.text)) loose.push({ text: desc, y: yOffset + line.y });
      continue;
    }
    items.push({
      description: (row.description ?? '').trim() || null,
      sku: row.sku?.trim() || null,
      quantity: nums.quantity ?? null,
      unit: row.unit ? row.unit.replace(/[\d.,\s]+/g, ' ').trim() || null : null,
      unitPrice: nums.unitPrice ?? null,
      total: nums.amount ?? null,
      y: yOffset + line.y,
    });
  }
  return false;
}

function attachDescriptions(items: (ExtractedLineItem & { y: number })[], loose: { text: string; y: number }[]): ExtractedLineItem[] {
  // Attach description lines without amounts: the nearest one above (a heading over the numbers), else below.
  items.forEach((it, k) => {
    const prevY = items[k - 1]?.y ?? -Infinity;
    const nextY = items[k + 1]?.y ?? Infinity;
    const above = loose.filter((l) => l.y < it.y && l.y > prevY && !DETAIL.test(l.text));
    const below = loose.filter((l) => l.y > it.y && l.y < nextY && !DETAIL.test(l.text));
    if (!it.description) it.description = above[above.length - 1]?.text ?? below[0]?.text ?? null;
    else {
      const cont = below.find((l) => l.y - it.y < 20 && /^[a-zà-ž]/.test(l.text));
      if (cont) it.description += ` ${cont.text}`;
    }
  });
  return items.map(({ y: _y, ...it }) => ({ ...it, description: it.description?.replace(/^\d{1,3}\s+(?=\D)/, '') ?? null }));
}
