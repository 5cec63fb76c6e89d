// The corpus's own label vocabulary (issue 48): label phrases taken from other sources than the engine's phrase
// lists (EN 16931 business-term names, UBL/CII element names turned into words, synonyms, abbreviations, typos),
// so that a document can ask whether the engine reads labels it was never given. Data only: the generator never
// reads the engine's files (src/extraction/lang); eval/vocabulary/ measures the overlap.

/**
 * Labels of the fields the eval scores, and of the amounts it must tell apart from them. Held apart: none of these
 * phrases may be in the engine's lists (test/corpus/vocabulary.test.ts checks it, case, accents and punctuation aside).
 */
export const KEY_LABELS = ['invoiceNumber', 'invoiceDate', 'dueDate', 'subtotal', 'taxTotal', 'total', 'amountDue', 'prepaid', 'itemsTotal'] as const;
export type KeyLabel = (typeof KEY_LABELS)[number];

/** Labels of the other numbers, dates, names and blocks an invoice prints: a realistic mix, some the engine knows. */
export const OTHER_LABELS = [
  'seller',
  'customerNumber',
  'orderNumber',
  'orderDate',
  'deliveryDate',
  'deliveryNote',
  'billTo',
  'shipTo',
  'contractNumber',
  'buyerReference',
  'gln',
  'gtin',
  'supplierNumber',
  'projectNumber',
  'servicePeriod',
  'printDate',
  'taxNumber',
  'accountHolder',
  'precedingInvoice',
  'precedingInvoiceDate',
] as const;
export type OtherLabel = (typeof OTHER_LABELS)[number];

export interface Vocabulary {
  key: Record<KeyLabel, readonly string[]>;
  other: Record<OtherLabel, readonly string[]>;
  /**
   * Title lines that carry the number and date ("{invoice} {number} · {date}"): held apart like the key labels, so
   * the words between the placeholders are none the engine was given.
   */
  titleLine: readonly string[];
  /** What follows "© {year} {name}" in a footer ("All rights reserved."). */
  rights: readonly string[];
  /** The seller's tax number by country ("143/123/45678"; # is a digit): countries without one print none. */
  taxNumber: Partial<Record<string, readonly string[]>>;
}
