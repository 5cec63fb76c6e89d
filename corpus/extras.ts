// What issue 48 adds to a document, drawn from streams of its own (`…/extras`, `…/labels`, `…/render`) so that the
// truth and the design stay those of the issue-14 document with the same seed and index: labels from the held-apart
// vocabulary (or the locale's, which are mostly the engine's own), labels in capitals or split over two lines, the
// other numbers and dates a real invoice prints (distractors.ts), a seller's name shown only as a logo. The
// `classic` mode adds nothing: it writes the issue-14 corpus byte for byte.

import type { Words } from './design.ts';
import { planDistractors, type DistractorPlan } from './distractors.ts';
import { NARROW } from './layouts.ts';
import { Rng } from './random.ts';
import type { InvoiceTruth } from './truth.ts';
import { KEY_LABELS, VOCABULARIES, type KeyLabel } from './vocabulary/index.ts';

/** Where a corpus draws its labels from: `mixed` (the default) draws each document's from one of the two others. */
export const LABEL_MODES = ['mixed', 'held-apart', 'engine', 'classic'] as const;
export type LabelMode = (typeof LABEL_MODES)[number];

/**
 * In a `mixed` corpus, 3 of every 5 consecutive documents are held apart: most of it, with enough of the others to
 * compare; by index, not drawn, so every family and language gets its share (5 and 14 have no common factor).
 */
export const heldApartInMix = (index: number) => index % 5 < 3;

let vocabularyHalf: 0 | 1 | null = null;
/**
 * Held-apart labels from one half of each phrase list only (the phrases at even or odd places), or from all (null):
 * `npm run train` fits on one half and reports on documents labelled from the other, so its held-out figure is on
 * phrases it never saw.
 */
export function useVocabularyHalf(half: 0 | 1 | null): void {
  vocabularyHalf = half;
}
const half = (phrases: readonly string[]): readonly string[] =>
  vocabularyHalf === null || phrases.length < 2 ? phrases : phrases.filter((_, i) => i % 2 === vocabularyHalf);

/** The labels of the numbers, dates and blocks that are not key fields, from the vocabulary in held-apart documents. */
const DISTRACTOR_WORDS = ['customerNumber', 'orderNumber', 'orderDate', 'deliveryDate', 'deliveryNote', 'billTo', 'shipTo'] as const;

export interface Extras {
  /** The stream of the issue-48 choices made while rendering (the order of the invoice data, split labels). */
  rng: Rng;
  /** The key labels come from the held-apart vocabulary (else from the locale). */
  heldApart: boolean;
  /** Labels of the invoice data split over two lines where they have two words or more. */
  splitLabels: boolean;
  /** With split labels: the value on the label's first line (a top-aligned cell), else on its last. */
  valueOnFirstLine: boolean;
  /** A held-apart title line ("{invoice} {number} · {date}"), in place of the locale's. */
  titleLine: string | null;
  /** The other numbers and dates it prints (none on till receipts). */
  plan: DistractorPlan | null;
  /** The letterhead's name drawn as a logo (vector paths, not in the text layer). */
  logo: boolean;
  /** A line of the letterhead naming the seller: "Sold by: <name>", or "<name> · VAT No. …". */
  sellerLine: 'soldBy' | 'vatLine' | null;
}

/**
 * The document's issue-48 choices; changes `w` (the document's words) in place. Null in `classic` mode. Streams of
 * their own, under the document's key: what every new mode shares (distractors, logo, capitals, split labels), the
 * held-apart labels, and the draws made while rendering; so the `engine` and `held-apart` modes print the same
 * documents with other labels.
 */
export function pickExtras(key: string, t: InvoiceTruth, w: Words, mode: LabelMode, index: number): Extras | null {
  if (mode === 'classic') return null;
  const rng = new Rng(`${key}/extras`);
  const caps = rng.chance(0.15);
  const splitLabels = rng.chance(0.3);
  const valueOnFirstLine = rng.chance(0.5);
  const plan = NARROW.has(t.layout) ? null : planDistractors(rng, t);
  // A name only in a logo is still in the text elsewhere, as on real invoices: a legal line at the foot of the page,
  // the account holder, a "Sold by" line or the VAT id's line (besides the footer's address block, when there is
  // one). A "Sold by" line alone comes up too (its prefix is no part of the name).
  const a4 = plan !== null && t.layout !== 'data-sheet';
  const logo = a4 && rng.chance(0.2);
  const evidence = logo ? rng.pick(['legalLine', 'holder', 'soldBy', 'vatLine'] as const) : a4 && rng.chance(0.1) ? ('soldBy' as const) : null;
  if (plan && evidence === 'holder') plan.accountHolder = true;
  if (plan && evidence === 'legalLine') plan.legalLine = true;

  const heldApart = mode === 'held-apart' || (mode === 'mixed' && heldApartInMix(index));
  const v = VOCABULARIES[t.language];
  const labels = new Rng(`${key}/labels`);
  if (heldApart) {
    for (const f of KEY_LABELS) w[f] = labels.pick(half(v.key[f]));
    for (const f of DISTRACTOR_WORDS) w[f] = labels.pick(half(v.other[f]));
    w.sheetItemsSum = w.itemsTotal;
  }
  if (caps) for (const f of [...KEY_LABELS, ...DISTRACTOR_WORDS]) w[f] = w[f].toUpperCase();
  return {
    rng: new Rng(`${key}/render`),
    heldApart,
    splitLabels,
    valueOnFirstLine,
    titleLine: heldApart ? labels.pick(half(v.titleLine)) : null,
    plan,
    logo,
    sellerLine: evidence === 'soldBy' || evidence === 'vatLine' ? evidence : null,
  };
}

/** The key labels a document's words hold (the eval splits documents by whether the engine's lists contain any). */
export function keyLabelsOf(t: InvoiceTruth, w: Words): Partial<Record<KeyLabel | 'titleLine', string>> {
  const out: Partial<Record<KeyLabel | 'titleLine', string>> = Object.fromEntries(KEY_LABELS.map((f) => [f, w[f]]));
  // The data sheet prints its items total under a label of its own.
  if (t.layout === 'data-sheet') out.itemsTotal = w.sheetItemsSum;
  return out;
}
