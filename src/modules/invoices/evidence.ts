import type { FieldEvidence } from '../../extraction/types.ts';

// Evidence as records keep it (the evidence jsonb columns of invoices, receipts and their line items): extraction's
// evidence, and a person's corrections (source CORRECTION: the value a person typed has no place on the page).

export type EvidenceSource = FieldEvidence['source'] | 'CORRECTION';
export interface Evidence extends Omit<FieldEvidence, 'source'> {
  source: EvidenceSource;
}

/** A stored evidence column as read: null when none was kept (recorded before it was, or by a provider without it). */
export const storedEvidence = (column: unknown): Evidence[] | null => (Array.isArray(column) ? (column as Evidence[]) : null);

/** Evidence as its column is written (JSON text), null when there is none. */
export const evidenceColumn = (evidence: readonly Evidence[] | null | undefined): string | null => (evidence ? JSON.stringify(evidence) : null);

/**
 * The evidence after a person's corrections: a corrected field's entry says CORRECTION, with the new value, confidence
 * 100 (as its field confidence) and no page or box; a cleared field has none. Entries stay in `order`.
 */
export function correctedEvidence(
  evidence: readonly Evidence[],
  changes: ReadonlyArray<readonly [string, string | number | null]>,
  order: readonly string[],
): Evidence[] {
  const changed = new Map(changes);
  const kept = evidence.filter((e) => !changed.has(e.field));
  const corrections = changes.flatMap(([field, value]): Evidence[] =>
    value === null ? [] : [{ field, value: String(value), confidence: 100, page: null, box: null, source: 'CORRECTION' }],
  );
  const rank = (e: Evidence) => (order.includes(e.field) ? order.indexOf(e.field) : order.length);
  return [...kept, ...corrections].sort((a, b) => rank(a) - rank(b));
}
