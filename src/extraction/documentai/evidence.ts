// Evidence from a Document AI result: each entity's `pageAnchor` (the page and bounding polygon the processor read it
// from) as a box of the page. Normalized vertices are fractions of the page already; pixel vertices are divided by
// the page's dimension. Document AI reads pages from their images: source OCR. An entity without an anchor has no
// place; the currency, when it came from an amount's code or the text rather than a currency entity, has none either.
import type { protos } from '@google-cloud/documentai';
import type { DocumentEvidence, EvidenceBox, ExtractedLineItem, FieldEvidence, FieldConfidences } from '../types.ts';
import { best, type DocAiDocument } from './entities.ts';

type Entity = protos.google.cloud.documentai.v1.Document.IEntity;

export const INVOICE_TYPES = {
  vendorName: 'supplier_name',
  invoiceNumber: 'invoice_id',
  invoiceDate: 'invoice_date',
  dueDate: 'due_date',
  subtotal: 'net_amount',
  tax: 'total_tax_amount',
  total: 'total_amount',
  currency: 'currency',
} as const;
export const RECEIPT_TYPES = {
  merchantName: 'supplier_name',
  receiptDate: 'receipt_date',
  subtotal: 'net_amount',
  tax: 'total_tax_amount',
  tip: 'tip_amount',
  total: 'total_amount',
  currency: 'currency',
} as const;
/** Our line item cells and the properties of a `line_item` they are read from (entities.ts). */
const CELLS = { description: 'description', sku: 'product_code', quantity: 'quantity', unit: 'unit', unitPrice: 'unit_price', total: 'amount' } as const;

const r4 = (n: number) => Math.round(Math.min(1, Math.max(0, n)) * 10_000) / 10_000;

/** The first page reference of an entity's anchor as a 1-based page and a box of it. */
function anchorOf(doc: DocAiDocument, e: Entity | undefined): { page: number; box: EvidenceBox } | null {
  const ref = e?.pageAnchor?.pageRefs?.[0];
  if (!ref?.boundingPoly) return null;
  const index = Number(ref.page ?? 0);
  const dim = doc.pages?.[index]?.dimension;
  const norm = ref.boundingPoly.normalizedVertices?.length
    ? ref.boundingPoly.normalizedVertices.map((v) => [v.x ?? 0, v.y ?? 0] as const)
    : (ref.boundingPoly.vertices ?? []).flatMap((v) => (dim?.width && dim.height ? [[(v.x ?? 0) / dim.width, (v.y ?? 0) / dim.height] as const] : []));
  if (!norm.length) return null;
  const [xs, ys] = [norm.map((p) => p[0]), norm.map((p) => p[1])];
  const [x, y] = [r4(Math.min(...xs)), r4(Math.min(...ys))];
  return { page: index + 1, box: { x, y, width: r4(Math.max(...xs) - x), height: r4(Math.max(...ys) - y) } };
}

function one(doc: DocAiDocument, field: string, value: string | number, confidence: number, e: Entity | undefined): FieldEvidence {
  const at = anchorOf(doc, e);
  return { field, value: String(value), confidence, page: at?.page ?? null, box: at?.box ?? null, source: 'OCR' };
}

/** Line items the mapping kept: `line_item` entities with a property it reads (entities.ts drops the others). */
function lineEntities(doc: DocAiDocument): Entity[][] {
  return (doc.entities ?? [])
    .filter((e) => e.type === 'line_item')
    .map((line) => (line.properties ?? []).map((p) => ({ ...p, type: p.type?.replace(/^line_item\//, '') ?? '' })))
    .filter((props) => props.some((p) => Object.values(CELLS).includes(p.type as never)));
}

/** Evidence of fields mapped from `doc`; `types`: each field's entity type. */
export function documentAiEvidence<F extends { lineItems: ExtractedLineItem[]; fieldConfidences: FieldConfidences }>(
  doc: DocAiDocument,
  types: Readonly<Partial<Record<keyof F & string, string>>>,
  fields: F,
): DocumentEvidence {
  const header = (Object.entries(types) as Array<[keyof F & string, string]>).flatMap(([f, type]) => {
    const value: unknown = fields[f];
    if (typeof value !== 'string' && typeof value !== 'number') return [];
    return [one(doc, f, value, fields.fieldConfidences[f] ?? 0, best(doc.entities ?? [], type))];
  });
  const lines = lineEntities(doc);
  // Matched by position only when the mapping kept every line entity (otherwise which is which is not known).
  const aligned = lines.length === fields.lineItems.length;
  const lineItems = fields.lineItems.map((item, i) =>
    (Object.keys(CELLS) as Array<keyof typeof CELLS>).flatMap((c) =>
      item[c] === null ? [] : [one(doc, c, item[c]!, fields.fieldConfidences.lineItems ?? 0, aligned ? best(lines[i]!, CELLS[c]) : undefined)],
    ),
  );
  return { fields: header, lineItems };
}
