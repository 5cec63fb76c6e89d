import { esc } from '../html.ts';

// Where a value shown on the invoice page was read: the value is wrapped in a focusable mark that carries its page and
// box; assets/invoice.mjs draws the box over the original when the value's row or cell is hovered or the mark focused.

/** The evidence a page selects (Invoice.evidence, LineItem.evidence). */
export const EVIDENCE_FIELDS = 'evidence { field page box { x y width height } }';

export interface PageEvidence {
  field: string;
  page: number | null;
  box: { x: number; y: number; width: number; height: number } | null;
}

/** `html` marked with where `field` was read; as it is when the value has no place on the page (worked out, corrected). */
export function marked(html: string, evidence: readonly PageEvidence[] | null, field: string, label: string): string {
  const e = evidence?.find((x) => x.field === field);
  if (!e?.box || e.page === null) return html;
  const { x, y, width, height } = e.box;
  const where = `${label}: shown on page ${e.page} of the original`;
  return `<span class="ev" tabindex="0" data-page="${esc(e.page)}" data-box="${esc([x, y, width, height].join(' '))}" title="${esc(where)}" aria-label="${esc(where)}">${html}</span>`;
}
