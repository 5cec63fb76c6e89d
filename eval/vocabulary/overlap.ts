// How much of a label vocabulary the engine's phrase lists already hold (issue 48). Per field: the phrases that are
// in one of the engine's lists (case, accents and punctuation aside), and those in which the engine's matcher finds
// a label of the same field anyway ("Payment due date" holds "due date"). Reads src/extraction/lang only to
// measure: the corpus generator never imports it (eslint.config.js, test/corpus/vocabulary.test.ts).

import { labelMatcher, LANGUAGES, type LabelField } from '../../src/extraction/lang/vocab.ts';

/** A phrase without case, accents, spaces or punctuation; "N°", "Nº" and "No" are one. */
export const labelKey = (s: string) =>
  s
    .replace(/^~/, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[º°]/g, 'o')
    .replace(/[^\p{L}\p{N}#%&+@]/gu, '');

let index: Map<string, string[]> | null = null;
/** Every label-like phrase of the engine (labels, titles, column headers, party-name labels, qualifiers, date words) → where it is. */
function engineIndex(): Map<string, string[]> {
  if (index) return index;
  index = new Map();
  const add = (lang: string, list: string, phrases: readonly string[]) => {
    for (const p of phrases) {
      const k = labelKey(p);
      const where = `${lang}.${list}`;
      const at = index!.get(k) ?? [];
      if (!at.includes(where)) at.push(where);
      index!.set(k, at);
    }
  };
  for (const l of LANGUAGES) {
    for (const [f, ps] of Object.entries(l.labels)) add(l.code, f, ps);
    for (const [f, ps] of Object.entries(l.columns)) add(l.code, `columns.${f}`, ps);
    add(l.code, 'invoiceTitle', l.invoiceTitle);
    add(l.code, 'partyNameLabels', l.partyNameLabels);
    add(l.code, 'amountQualifiers', [...l.amountQualifiers.net, ...l.amountQualifiers.gross]);
    add(l.code, 'dateWords', l.dateWords);
  }
  return index;
}

/** The engine's lists holding this phrase (empty: the engine was never given it). */
export const engineListsWith = (phrase: string): string[] => engineIndex().get(labelKey(phrase)) ?? [];

/** The label words of a phrase or template: "{invoice} Nr. {number} vom {date}" → "Nr.", "vom"; punctuation alone is none. */
export const labelFragments = (s: string): string[] =>
  s
    .split(/\{\w+\}/)
    .map((p) => p.trim())
    .filter((p) => labelKey(p) !== '');

/** Whether none of a document's key labels (or the words of its title line) is in the engine's lists. */
export const keyLabelsHeldApart = (labels: Record<string, string>): boolean =>
  Object.values(labels).every((l) => labelFragments(l).every((p) => !engineListsWith(p).length));

/** The engine's label fields a corpus field's label should read as. */
export const READS_AS: Record<string, readonly LabelField[]> = {
  invoiceNumber: ['invoiceNumber'],
  invoiceDate: ['invoiceDate'],
  dueDate: ['dueDate'],
  subtotal: ['subtotal'],
  taxTotal: ['tax'],
  total: ['total'],
  amountDue: ['amountDue'],
  prepaid: ['prepaid'],
  itemsTotal: ['subtotal'],
  titleLine: ['invoiceNumber', 'invoiceDate'],
  seller: ['seller'],
  customerNumber: ['customerNumber'],
  orderNumber: ['orderNumber'],
  deliveryNote: ['orderNumber'],
  contractNumber: ['orderNumber'],
  projectNumber: ['orderNumber'],
  buyerReference: ['orderNumber'],
  orderDate: ['deliveryDate'],
  deliveryDate: ['deliveryDate'],
  servicePeriod: ['deliveryDate'],
  printDate: ['deliveryDate'],
  billTo: ['buyer'],
  shipTo: ['buyer'],
  taxNumber: ['taxId', 'customerNumber'],
  gln: ['taxId', 'customerNumber'],
};

export interface PhraseOverlap {
  lang: string;
  phrase: string;
  /** The engine's lists holding it. */
  lists: string[];
  /** What the engine's matcher finds in it for the same field: a strong label, a generic one, or nothing. */
  reads: 'strong' | 'weak' | null;
}
export interface FieldOverlap {
  field: string;
  phrases: number;
  inEngineLists: number;
  readsStrong: number;
  overlapping: PhraseOverlap[];
}

/** Per field: how many phrases the engine's lists hold, and which. */
export function measureOverlap(entries: ReadonlyArray<{ field: string; lang: string; phrase: string }>): FieldOverlap[] {
  const matcher = labelMatcher();
  const fields = [...new Set(entries.map((e) => e.field))];
  return fields.map((field) => {
    const same = READS_AS[field] ?? [];
    const rows: PhraseOverlap[] = entries
      .filter((e) => e.field === field)
      .map(({ lang, phrase }) => {
        const hits = matcher.find(phrase).filter((h) => same.includes(h.field as LabelField));
        const reads = hits.some((h) => !h.weak) ? 'strong' : hits.length ? 'weak' : null;
        return { lang, phrase, lists: engineListsWith(phrase), reads };
      });
    return {
      field,
      phrases: rows.length,
      inEngineLists: rows.filter((r) => r.lists.length).length,
      readsStrong: rows.filter((r) => r.reads === 'strong').length,
      overlapping: rows.filter((r) => r.lists.length),
    };
  });
}
