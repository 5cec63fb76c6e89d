// A total's label with a qualifier of its own after it: "Total   net   1,660.09" is the net amount and
// "Gesamtsumme   brutto   2.008,71" the gross one, as e-invoice viewers print the totals (label | net/gross |
// amount). The qualifier decides the field: a total or amount-due label followed by a net word is a subtotal, a
// subtotal label followed by a gross word is the total.
import { fold, type Hit, type LabelField } from '../lang/vocab.ts';
import { LANGUAGES } from '../lang/index.ts';

const phrases = (pick: 'net' | 'gross') => [...new Set(LANGUAGES.flatMap((l) => l.amountQualifiers[pick].map((p) => fold(p).trim())))];
const NET = phrases('net');
const GROSS = phrases('gross');

/** The qualifier right after `end` (before any digit) and where it ends, or null. */
function qualifierAt(folded: string, end: number): { kind: 'net' | 'gross'; end: number } | null {
  const lead = /^[\s:(]*/.exec(folded.slice(end))![0].length;
  const head = folded
    .slice(end + lead)
    .split(/\d/)[0]!
    .replace(/[\s:)]+$/, '');
  if (!head || head.length > 30) return null;
  for (const [kind, list] of [
    ['net', NET],
    ['gross', GROSS],
  ] as const) {
    const q = list.find((p) => head === p || (head.startsWith(p) && /^[\s)]/.test(head.slice(p.length))));
    if (q) return { kind, end: end + lead + q.length };
  }
  return null;
}

/** The line's label hits with total/subtotal relabelled by the qualifier that follows them. */
export function qualifyTotals(text: string, hits: Hit<LabelField>[]): Hit<LabelField>[] {
  if (!hits.some((h) => h.field === 'total' || h.field === 'subtotal' || h.field === 'amountDue')) return hits;
  const folded = fold(text);
  const out: Hit<LabelField>[] = [];
  // Words of a qualifier ("con IVA", "incl. VAT") are not labels of their own.
  const spans: [number, number][] = [];
  for (const h of hits) {
    const q = h.field === 'total' || h.field === 'subtotal' || h.field === 'amountDue' ? qualifierAt(folded, h.end) : null;
    if (q) spans.push([h.end, q.end]);
    const field = q?.kind === 'net' ? 'subtotal' : q?.kind === 'gross' && h.field === 'subtotal' ? 'total' : h.field;
    const hit = field === h.field ? h : { ...h, field, weak: false };
    if (!out.some((o) => o.field === hit.field && o.start === hit.start)) out.push(hit);
  }
  return out.filter((h) => !spans.some(([a, b]) => h.start >= a && h.end <= b));
}
