// The invoice number and dates as the learned scorers rank them (weights in ./weights, fitted by `npm run train`).
// The chosen value keeps its place on the page (line, offset), as a rule's candidate does, for confidences and
// evidence; its confidence is the model's probability.
import type { FieldCandidate } from '../candidates.ts';
import type { InvoiceDoc } from '../doc.ts';
import type { PlacedValue } from './key-text.ts';
import { DATE_FEATURES, dateFeatures } from './date-features.ts';
import { loadModel } from './load.ts';
import { rank } from './model.ts';
import { NUMBER_FEATURES, numberFeatures } from './number-features.ts';

export interface Chosen<T> {
  candidate: FieldCandidate<T> | null;
  /** 0–100: the model's probability that this is the value (or that there is none, when null). */
  confidence: number;
}

/** A ranked value as a rule's candidate: its place on the page, the model's probability as its score. */
export const asCandidate = <T>(
  c: Pick<PlacedValue, 'line' | 'at' | 'length'> & { value: T },
  p: number,
  field: FieldCandidate<T>['field'],
  via: FieldCandidate<T>['via'] = 'free',
): FieldCandidate<T> => ({
  value: c.value,
  field,
  score: p,
  line: c.line,
  at: c.at,
  length: c.length,
  ocr: c.line.confidence,
  via,
  weak: false,
  labelText: c.line.text,
  labelStart: 0,
});

/** The index with the highest probability among those allowed, or -1. */
function best(p: number[], allowed: (i: number) => boolean = () => true): number {
  let bi = -1;
  p.forEach((v, i) => {
    if (allowed(i) && (bi < 0 || v > p[bi]!)) bi = i;
  });
  return bi;
}

const percent = (p: number) => Math.max(1, Math.min(99, Math.round(p * 100)));

/** The invoice number the model ranks first, or none when it ranks "none" first. */
export function chooseNumber(doc: InvoiceDoc): Chosen<string> {
  const { cands, rows } = numberFeatures(doc);
  const { p, none } = rank(loadModel('invoiceNumber', NUMBER_FEATURES), rows);
  // Several places may print the same value: their probabilities add up.
  const byValue = new Map<string, number>();
  cands.forEach((c, i) => byValue.set(c.value, (byValue.get(c.value) ?? 0) + p[i]!));
  const i = best(p);
  if (i < 0 || byValue.get(cands[i]!.value)! <= none) return { candidate: null, confidence: percent(none) };
  const total = byValue.get(cands[i]!.value)!;
  return { candidate: asCandidate(cands[i]!, total, 'invoiceNumber'), confidence: percent(total) };
}

/** The invoice date and the due date the models rank first; the due date is never before the invoice date. */
export function chooseDates(doc: InvoiceDoc): { invoice: Chosen<string>; due: Chosen<string> } {
  const { cands, rows } = dateFeatures(doc);
  const inv = rank(loadModel('invoiceDate', DATE_FEATURES), rows);
  const due = rank(loadModel('dueDate', DATE_FEATURES), rows);
  const sum = (p: number[], value: string) => cands.reduce((s, c, k) => s + (c.value === value ? p[k]! : 0), 0);
  const i = best(inv.p);
  const invoice = i >= 0 && sum(inv.p, cands[i]!.value) > inv.none ? cands[i]! : null;
  const j = best(due.p, (k) => k !== i && (!invoice || cands[k]!.value >= invoice.value));
  const dueDate = j >= 0 && sum(due.p, cands[j]!.value) > due.none ? cands[j]! : null;
  return {
    invoice: invoice
      ? { candidate: asCandidate(invoice, sum(inv.p, invoice.value), 'invoiceDate'), confidence: percent(sum(inv.p, invoice.value)) }
      : { candidate: null, confidence: percent(inv.none) },
    due: dueDate
      ? { candidate: asCandidate(dueDate, sum(due.p, dueDate.value), 'dueDate'), confidence: percent(sum(due.p, dueDate.value)) }
      : { candidate: null, confidence: percent(due.none) },
  };
}
