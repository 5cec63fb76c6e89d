// Runs the engine's understanding step on read pages and scores each document against its labels.

import { extractInvoiceFields } from '../../src/extraction/fields/invoice.ts';
import { extractReceiptFields } from '../../src/extraction/fields/receipt.ts';
import { deliverInvoices } from '../../src/extraction/local.extractor.ts';
import type { ReadResult } from '../../src/extraction/reader.ts';
import type { DocumentKind, ExtractedLineItem, PageText } from '../../src/extraction/types.ts';
import { keyLabelsHeldApart } from '../vocabulary/overlap.ts';
import { mistakeOf } from './mistakes.ts';
import { fieldMatches, HEADER_FIELDS, scoreLines, type Expected, type HeaderField, type LineScore } from './score.ts';

export interface Entry {
  file: string;
  kind: DocumentKind;
  expected: Expected;
  /** Tags of generated documents. */
  language?: string;
  layout?: string;
  /** Where a real document came from (`owner/repo:path`): the dev receipts are SROIE scans or Latvian photos. */
  source?: string;
  /** How the generator wrote the text into the PDF (corpus/pdf/producer.ts). */
  producer?: string;
  /** Generated documents (issue 48): where the key labels came from, the labels themselves, and what else is printed. */
  labels?: string;
  keyLabels?: Record<string, string>;
  distractors?: {
    numbers: Record<string, string>;
    dates: Record<string, string>;
    names: Record<string, string>;
    amounts: Record<string, number>;
  };
  /** How the letterhead shows the seller's name: text, or only a logo. */
  sellerName?: string;
}

export interface FieldResult {
  expected: unknown;
  got: unknown;
  ok: boolean;
  /** The engine's confidence in the value (0–100), null when it gives none for this field. */
  confidence: number | null;
  /** When wrong: what the value was (mistakes.ts: another number, date, name or amount of the document, or nothing). */
  mistake?: string;
}

export interface DocResult {
  file: string;
  kind: DocumentKind;
  language?: string;
  layout?: string;
  /** The dataset a real document came from (its source repository). */
  source?: string;
  producer?: string;
  /** `held-apart` when none of the document's key labels is in the engine's phrase lists (eval/vocabulary), else `engine`. */
  labels?: string;
  sellerName?: string;
  fields: Partial<Record<HeaderField, FieldResult>>;
  lines: LineScore | null;
  /** The engine's confidence in the line items. */
  linesConfidence: number | null;
  /** extractionConfidence. */
  confidence: number | null;
  /** Every key field (those extractionConfidence stands for) with a label was right; null when none is labelled. */
  keyRight: boolean | null;
  pages: { source: PageText['source']; ms: number }[];
  error?: string;
}

/** The fields extractionConfidence is made of, per kind (src/extraction/fields/invoice.ts, receipt.ts). */
export const KEY_FIELDS: Record<DocumentKind, readonly HeaderField[]> = {
  invoice: ['vendorName', 'invoiceNumber', 'invoiceDate', 'total'],
  receipt: ['vendorName', 'invoiceDate', 'total'],
};
/** Receipts carry no invoice number or due date in our output: not scored. */
const SCORED: Record<DocumentKind, readonly HeaderField[]> = {
  invoice: HEADER_FIELDS,
  receipt: HEADER_FIELDS.filter((f) => f !== 'invoiceNumber' && f !== 'dueDate'),
};

interface Got {
  values: Partial<Record<HeaderField, unknown>>;
  confidences: Partial<Record<HeaderField | 'lineItems', number>>;
  lineItems: ExtractedLineItem[];
  confidence: number | null;
}

/** What a read document gives: as delivered (an e-invoice it carries first) with the reader's result, else the text engine on the pages. */
function understand(kind: DocumentKind, pages: PageText[], read?: ReadResult): Got {
  if (kind === 'invoice') {
    const [first] = read ? deliverInvoices(read).invoices : extractInvoiceFields(pages);
    if (!first) return { values: {}, confidences: {}, lineItems: [], confidence: null };
    return {
      values: first as unknown as Record<HeaderField, unknown>,
      confidences: first.fieldConfidences,
      lineItems: first.lineItems,
      confidence: first.confidence,
    };
  }
  const r = extractReceiptFields(pages);
  const { merchantName, receiptDate, ...rest } = r.fieldConfidences;
  return {
    values: { ...r, vendorName: r.merchantName, invoiceDate: r.receiptDate },
    confidences: { ...rest, vendorName: merchantName, invoiceDate: receiptDate },
    lineItems: r.lineItems,
    confidence: r.confidence,
  };
}

/**
 * Scores one document from its pages (empty pages: nothing could be read). With the reader's whole result an invoice
 * is scored as delivered (an e-invoice it carries first); with pages alone, the visible-text engine's own reading.
 */
export function scoreDocument(e: Entry, pages: PageText[], error?: string, read?: ReadResult): DocResult {
  const t0 = performance.now();
  const got = understand(e.kind, pages, read);
  const perPage = (performance.now() - t0) / Math.max(1, pages.length);
  const fields: DocResult['fields'] = {};
  for (const f of SCORED[e.kind]) {
    const exp = e.expected[f];
    if (exp === undefined) continue;
    const ok = fieldMatches(f, exp, got.values[f]);
    fields[f] = {
      expected: exp,
      got: got.values[f] ?? null,
      ok,
      confidence: got.confidences[f] ?? null,
      ...(ok ? {} : { mistake: mistakeOf(f, got.values[f], e) }),
    };
  }
  // Measured now, against the engine's lists as they are (the generator's tag says which vocabulary it drew from).
  const labels = e.keyLabels ? (keyLabelsHeldApart(e.keyLabels) ? 'held-apart' : 'engine') : e.labels;
  const keys = KEY_FIELDS[e.kind].filter((f) => fields[f]);
  return {
    file: e.file,
    kind: e.kind,
    ...(e.language ? { language: e.language } : {}),
    ...(e.layout ? { layout: e.layout } : {}),
    ...(e.source ? { source: e.source.split(':')[0] } : {}),
    ...(e.producer ? { producer: e.producer } : {}),
    ...(labels ? { labels } : {}),
    ...(e.sellerName ? { sellerName: e.sellerName } : {}),
    fields,
    lines: e.expected.lineItems ? scoreLines(e.expected.lineItems, got.lineItems) : null,
    linesConfidence: got.confidences.lineItems ?? null,
    confidence: got.confidence,
    keyRight: keys.length ? keys.every((f) => fields[f]!.ok) : null,
    pages: pages.map((p) => ({ source: p.source, ms: p.ms + perPage })),
    ...(error ? { error } : {}),
  };
}

/**
 * Reads (with `read`) and scores every entry, one document at a time: reading two at once on the shared worker
 * pool was slower here (260 generated invoices: 16.7 s one at a time, 25.7 s two at a time on 2 cores) and would
 * blur the per-page latency.
 */
/** `read` gives the reader's whole result (scored as delivered) or pages alone (the text engine's own reading). */
export async function evaluate(entries: readonly Entry[], read: (e: Entry) => Promise<PageText[] | ReadResult>): Promise<DocResult[]> {
  const out: DocResult[] = [];
  for (const e of entries) {
    let r: PageText[] | ReadResult;
    try {
      r = await read(e);
    } catch (err) {
      out.push(scoreDocument(e, [], `read failed: ${(err as Error).message}`));
      continue;
    }
    try {
      out.push(Array.isArray(r) ? scoreDocument(e, r) : scoreDocument(e, r.pages, undefined, r));
    } catch (err) {
      out.push(scoreDocument(e, [], `not delivered: ${(err as Error).message}`));
    }
  }
  return out;
}
