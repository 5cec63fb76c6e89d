// Document AI's page anchors as evidence: the recorded responses' bounding polygons become page + box (source OCR).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type DocAiDocument, documentToInvoices, documentToReceipt } from '../../../src/extraction/documentai/entities.ts';
import { documentAiEvidence, INVOICE_TYPES, RECEIPT_TYPES } from '../../../src/extraction/documentai/evidence.ts';

const load = (name: string) =>
  (JSON.parse(readFileSync(new URL(`../../fixtures/documentai/${name}`, import.meta.url), 'utf8')) as { document: DocAiDocument }).document;
const byField = <T extends { field: string }>(xs: T[]) => Object.fromEntries(xs.map((x) => [x.field, x]));

describe('Document AI evidence', () => {
  it('maps each field’s entity anchor to its page and box, source OCR', () => {
    const doc = load('invoice-response.json');
    const [invoice] = documentToInvoices(doc);
    const f = byField(documentAiEvidence(doc, INVOICE_TYPES, invoice!).fields);
    // supplier_name: normalized vertices (0.06, 0.05)–(0.324, 0.068) on the first page.
    expect(f.vendorName).toEqual({
      field: 'vendorName',
      value: 'Green Valley Produce Co.',
      confidence: invoice!.fieldConfidences.vendorName,
      page: 1,
      box: { x: 0.06, y: 0.05, width: 0.264, height: 0.018 },
      source: 'OCR',
    });
    // The totals sit on the second page ("page": "1" is zero-based).
    expect(f.total).toMatchObject({ value: '367.22', page: 2 });
    expect(f.subtotal!.page).toBe(2);
  });

  it('gives each line item’s cells their property anchors, and a field without an entity anchor no place', () => {
    const doc = load('invoice-response.json');
    const [invoice] = documentToInvoices(doc);
    const lines = documentAiEvidence(doc, INVOICE_TYPES, invoice!).lineItems;
    expect(lines).toHaveLength(invoice!.lineItems.length);
    const last = byField(lines.at(-1)!);
    expect(last.description).toMatchObject({ value: 'Delivery fee', page: 2, box: { x: 0.06, y: 0.45, width: 0.132, height: 0.018 } });
    const noAnchors: DocAiDocument = { ...doc, entities: doc.entities!.map(({ pageAnchor: _, ...e }) => e) };
    for (const e of documentAiEvidence(noAnchors, INVOICE_TYPES, invoice!).fields) expect(e).toMatchObject({ page: null, box: null });
  });

  it('divides pixel vertices by the page’s dimension', () => {
    const doc = load('expense-response.json');
    const receipt = documentToReceipt(doc);
    const pixels: DocAiDocument = {
      ...doc,
      entities: doc.entities!.map((e) =>
        e.type === 'total_amount'
          ? {
              ...e,
              pageAnchor: {
                pageRefs: [
                  {
                    boundingPoly: {
                      vertices: [
                        { x: 612, y: 1224 },
                        { x: 734, y: 1224 },
                        { x: 734, y: 1273 },
                        { x: 612, y: 1273 },
                      ],
                    },
                  },
                ],
              },
            }
          : e,
      ),
    };
    // The page is 1224 × 2448 pixels.
    expect(byField(documentAiEvidence(pixels, RECEIPT_TYPES, receipt).fields).total).toMatchObject({
      page: 1,
      box: { x: 0.5, y: 0.5, width: 0.0997, height: 0.02 },
    });
  });
});
