// Evidence of line items, one per cell: the readers (table, item blocks, till lines, receipt rows) keep no positions,
// so each item is found again on the page, in document order: its row is the next line that prints its amount
// (with words of its description when one does), its cells are read on that row — or, for an item printed as a
// block of labelled rows ("Quantity 16" / "Price 59.50" / "Total 952.00"), on the lines around it. A cell found
// nowhere (a till line's unit price, which the reader works out) has no box.
import type { EvidenceSource, ExtractedLineItem, FieldEvidence, PageText } from '../types.ts';
import type { DecimalSeparator } from './amounts.ts';
import { evidence, type Place } from './evidence.ts';
import type { Line } from './layout.ts';
import { amountIn, numberIn, wordKey, wordRuns, wordsIn } from './locate.ts';

const CELLS = ['description', 'sku', 'quantity', 'unit', 'unitPrice', 'total'] as const;
type Cell = (typeof CELLS)[number];

/** Lines above and below a row where a block item's other rows and a description may be printed. */
const ABOVE = 6;
const BELOW = 3;

export function lineItemEvidence(
  pages: readonly PageText[],
  lines: readonly Line[],
  items: readonly ExtractedLineItem[],
  opts: { dec?: DecimalSeparator; confidence: number; source?: EvidenceSource },
): FieldEvidence[][] {
  let cursor = 0;
  return items.map((item) => {
    const row = findRow(lines, item, opts.dec, cursor) ?? findRow(lines, item, opts.dec, 0);
    if (row !== null) cursor = row + 1;
    const places = row === null ? {} : cellPlaces(lines, row, item, opts.dec);
    return CELLS.filter((c) => item[c] !== null).map((c) => {
      const place = places[c];
      return evidence(pages, { field: c, value: item[c]!, confidence: opts.confidence }, place ? [place].flat() : [], opts.source);
    });
  });
}

const descriptionWords = (line: Line, item: ExtractedLineItem) => (item.description ? wordRuns(line, item.description).length : 0);

/** The item's row from `from` on: the first line printing its amount and words of its description, else its amount. */
function findRow(lines: readonly Line[], item: ExtractedLineItem, dec: DecimalSeparator | undefined, from: number): number | null {
  let amountOnly: number | null = null;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!;
    const priced = item.total === null || amountIn(line, item.total, dec) !== null;
    const named = descriptionWords(line, item) > 0;
    if (priced && (named || !item.description) && (item.total !== null || named)) return i;
    if (priced && item.total !== null && amountOnly === null) amountOnly = i;
  }
  return amountOnly;
}

/** The lines around a row on its page, nearest first. */
function around(lines: readonly Line[], row: number): Line[] {
  const out: Line[] = [];
  for (let d = 1; d <= ABOVE; d++)
    for (const i of [row - d, row + d]) {
      const l = lines[i];
      if (l && l.page === lines[row]!.page && (i < row || d <= BELOW)) out.push(l);
    }
  return out;
}

/** Where each of an item's cells is printed, found on its row first. */
function cellPlaces(lines: readonly Line[], row: number, item: ExtractedLineItem, dec: DecimalSeparator | undefined): Partial<Record<Cell, Place | Place[]>> {
  const line = lines[row]!;
  const near = around(lines, row);
  // A row without description words is one labelled row of a block: its other cells are on the rows around it.
  const block = descriptionWords(line, item) === 0;
  const out: Partial<Record<Cell, Place | Place[]>> = {};
  const taken = (): Place[] =>
    Object.values(out)
      .flat()
      .filter((p): p is Place => p !== undefined);
  const onRowOrBlock = (find: (l: Line) => Place | null) => find(line) ?? (block ? firstOf(near, find) : null);
  if (item.total !== null) out.total = amountIn(line, item.total, dec) ?? undefined;
  if (item.description) out.description = describe(lines, row, near, item.description, block);
  if (item.sku) out.sku = wordsIn(line, item.sku, taken()) ?? undefined;
  if (item.unitPrice !== null) out.unitPrice = onRowOrBlock((l) => amountIn(l, item.unitPrice!, dec, undefined, taken())) ?? undefined;
  if (item.quantity !== null) out.quantity = onRowOrBlock((l) => numberIn(l, item.quantity!, dec, taken())) ?? undefined;
  if (item.unit) out.unit = onRowOrBlock((l) => wordsIn(l, item.unit!, taken())) ?? undefined;
  return out;
}

const firstOf = (lines: Line[], find: (l: Line) => Place | null): Place | null => {
  for (const l of lines) {
    const p = find(l);
    if (p) return p;
  }
  return null;
};

/** Share of a line's words that are description words: a line of them continues the description. */
const descriptionShare = (line: Line, description: string) => {
  const wanted = new Set(description.split(/\s+/).map(wordKey));
  const words = line.words.filter((w) => wordKey(w.text));
  return words.filter((w) => wanted.has(wordKey(w.text))).length / Math.max(1, words.length);
};

const wordsOf = (p: Place) =>
  p.line.text
    .slice(p.from, p.to)
    .split(/\s+/)
    .filter((w) => wordKey(w)).length;
const longestRun = (l: Line, description: string) => wordRuns(l, description).reduce<Place | null>((a, b) => (!a || wordsOf(b) > wordsOf(a) ? b : a), null);

/**
 * The description's words: the longest run of them on the row, the lines above it made of them when the row does not
 * start the description (a heading over the numbers), the lines below while words are missing (a wrapped
 * description, detail lines); for a block item, the best line of them near its rows.
 */
function describe(lines: readonly Line[], row: number, near: Line[], description: string, block: boolean): Place[] | undefined {
  const tokens = description.split(/\s+/).map(wordKey).filter(Boolean);
  if (block) {
    const best = near.filter((l) => descriptionShare(l, description) >= 0.6).map((l) => longestRun(l, description))[0];
    return best ? [best] : undefined;
  }
  const line = lines[row]!;
  const own = longestRun(line, description);
  if (!own) return undefined;
  const out = [own];
  const continues = (l: Line | undefined): l is Line => l !== undefined && l.page === line.page && descriptionShare(l, description) >= 0.6;
  if (wordKey(line.text.slice(own.from, own.to).split(/\s+/)[0]!) !== tokens[0])
    for (let i = row - 1; i >= row - 2 && continues(lines[i]); i--) out.push(...wordRuns(lines[i]!, description));
  let count = out.reduce((n, p) => n + wordsOf(p), 0);
  for (let i = row + 1; i <= row + 8 && count < tokens.length && continues(lines[i]); i++) {
    const runs = wordRuns(lines[i]!, description);
    out.push(...runs);
    count += runs.reduce((n, p) => n + wordsOf(p), 0);
  }
  return out;
}
