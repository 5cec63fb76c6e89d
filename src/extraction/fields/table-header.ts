// The header row of a line-item table, found with the column words of every language, and its columns' x ranges.
import type { ColumnKind, LabelField } from '../lang/vocab.ts';
import { findAmounts } from './amounts.ts';
import type { InvoiceDoc } from './doc.ts';
import { spanX, type Line } from './layout.ts';

/** Column kinds a row is read into; VAT rate and position columns only keep their values out of the others. */
export type Kind = Exclude<ColumnKind, 'vatRate' | 'position' | 'discount'> | 'other';

export interface Column {
  kind: Kind;
  x0: number;
  x1: number;
}

export interface Header {
  cols: Column[];
  /** Index (in doc.lines) of the header's last line. */
  end: number;
}

// When the same words name several kinds ("total" is an amount, "tarief" a price or a VAT rate), the first listed wins.
const PRIORITY: ColumnKind[] = ['description', 'quantity', 'unitPrice', 'amount', 'unit', 'sku', 'discount', 'vatRate', 'position'];
const NUMERIC: Kind[] = ['quantity', 'unitPrice', 'amount', 'unit'];
const SKU_LIKE = /^(item|artikel|article|artigo|articolo|art[ií]culo|code|c[oó]digo|codice)\s*(#|no\.?|nr\.?|number|n[°º])?$/i;

const TAX_TABLE: LabelField[] = ['tax', 'taxSummary'];
const hasMoney = (line: Line) => findAmounts(line.text).some((a) => a.hasDecimals);

/** Columns named on one line: each header word with the run of text around it (up to a wide gap). */
export function headerColumns(doc: InvoiceDoc, li: number): Column[] {
  const line = doc.lines[li]!;
  const text = line.text;
  const found: { kind: Kind; s: number; e: number }[] = [];
  for (const h of doc.columnHits[li]!) {
    const same = doc.columnHits[li]!.filter((o) => o.start === h.start);
    const kind = PRIORITY.find((k) => same.some((o) => o.field === k))!;
    if (found.some((f) => f.s === h.start)) continue;
    found.push({ kind: kind === 'vatRate' || kind === 'position' || kind === 'discount' ? 'other' : kind, s: h.start, e: h.end });
  }
  const segStart = (i: number) => text.lastIndexOf('   ', i);
  const segEnd = (i: number) => (text.indexOf('   ', i) < 0 ? text.length : text.indexOf('   ', i));
  // "Item" beside a separate "Description" column holds item codes.
  // Two columns both called "Article": the first holds the codes, the last the names.
  const descs = found.filter((f) => f.kind === 'description');
  if (descs.length > 1) {
    const codes = descs.filter((f) => SKU_LIKE.test(text.slice(f.s, segEnd(f.s)).trim()));
    for (const f of codes.length === descs.length ? codes.slice(0, -1) : codes) f.kind = 'sku';
  }
  // Several header words in one run of text: words naming numbers ("Cantidad Precio unitario Total" set close
  // together) are columns of their own; text words ("Ligne CODE ARTICLE, NOM & DESIGNATION") make one column, of
  // the first kind by priority.
  const rank = (k: Kind) => (k === 'other' ? PRIORITY.length : PRIORITY.indexOf(k));
  const numeric = (f: { kind: Kind }) => NUMERIC.includes(f.kind);
  const sameRun = (a: { s: number }, b: { s: number }) => segStart(a.s) === segStart(b.s);
  const split = (f: (typeof found)[0]) => numeric(f) && found.some((p) => p !== f && sameRun(p, f) && numeric(p));
  const kept = found.filter(
    (f) =>
      split(f) || !found.some((p) => p !== f && sameRun(p, f) && !split(p) && (rank(p.kind) < rank(f.kind) || (rank(p.kind) === rank(f.kind) && p.s < f.s))),
  );
  return kept.map((f) => {
    const next = kept.find((p) => p.s > f.s && sameRun(p, f));
    const x = spanX(line, f.s, split(f) ? (next ? next.s - 1 : Math.max(f.e, segEnd(f.s))) : Math.max(f.e, segEnd(f.s)));
    return { kind: f.kind, x0: x.x0, x1: x.x1 };
  });
}

const score = (cols: Column[]) => new Set(cols.filter((c) => c.kind !== 'other').map((c) => c.kind)).size;

/** The header among `range` (doc.lines indexes): the line, with the lines just around it, naming the most kinds. */
export function findHeader(doc: InvoiceDoc, from = 0, to = doc.lines.length): Header | null {
  let best: Header | null = null;
  for (let i = from; i < to; i++) {
    const line = doc.lines[i]!;
    // A VAT breakdown's header ("MwSt   Netto   MwSt.   Brutto") names amounts too.
    if (hasMoney(line) || doc.hits[i]!.some((h) => h.start <= 2 && !h.weak && TAX_TABLE.includes(h.field))) continue;
    let cols = headerColumns(doc, i);
    if (score(cols) < 2) continue;
    let end = i;
    // Headers printed on two or three lines ("Prix" over "unitaire").
    const near = (l: Line, other: Line) => l.page === other.page && Math.abs(l.y - other.y) - Math.min(l.height, other.height) < line.height * 1.5;
    for (let j = i + 1; j < to && j <= i + 3; j++) {
      const l = doc.lines[j]!;
      if (!near(l, doc.lines[j - 1]!) || hasMoney(l)) break;
      const named = headerColumns(doc, j);
      // A second header line: new kinds, or more words for the kinds already named ("(EUR)", "for P.U.").
      if (!named.length && !/^[\s()A-Z€$£%/.-]{1,12}$/.test(l.text)) break;
      cols = [...cols, ...named.filter((c) => !cols.some((o) => o.kind === c.kind))];
      end = j;
    }
    for (let j = i - 1; j >= from && j >= i - 2; j--) {
      const l = doc.lines[j]!;
      if (!near(l, doc.lines[j + 1]!) || hasMoney(l)) break;
      const more = headerColumns(doc, j).filter((c) => c.kind !== 'other' && !cols.some((o) => o.kind === c.kind));
      if (!more.length) break;
      cols = [...cols, ...more];
    }
    if (!cols.some((c) => c.kind === 'amount' || c.kind === 'unitPrice')) continue;
    if (!best || score(cols) > score(best.cols)) best = { cols, end };
    i = end;
  }
  return best;
}
