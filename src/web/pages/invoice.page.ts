import { esc } from '../html.ts';
import { day, dayOf, label, money, percent } from './format.ts';
import { empty, figures, table } from './layout.ts';
import { EVIDENCE_FIELDS, marked, type PageEvidence } from './invoice-evidence.ts';
import { PageError } from './page-graphql.ts';
import type { PageHandler } from './page.ts';

const DETAIL = `query InvoiceDetail($id: UUID!) {
  invoice(id: $id) {
    id storeId vendorName invoiceNumber invoiceDate dueDate subtotal tax total currency status error extractionConfidence source
    fieldConfidences { vendorName invoiceNumber invoiceDate dueDate total }
    ${EVIDENCE_FIELDS}
    lineItems { description sku quantity unit unitPrice total costCategory ${EVIDENCE_FIELDS} }
    notes
    corrections { field previousValue value correctedBy correctedAt }
    vendor { name extractionAccuracy { invoiceCount correctedInvoices correctedFields accuracyPercent } }
    original { url fileType pageCount fileName }
  }
}`;

type Field = 'vendorName' | 'invoiceNumber' | 'invoiceDate' | 'dueDate' | 'subtotal' | 'tax' | 'total';
interface Detail {
  id: string;
  storeId: string | null;
  vendorName: string | null;
  invoiceNumber: string | null;
  invoiceDate: string | null;
  dueDate: string | null;
  subtotal: number | null;
  tax: number | null;
  total: number | null;
  currency: string | null;
  status: string;
  error: string | null;
  extractionConfidence: number | null;
  source: string | null;
  fieldConfidences: Record<'vendorName' | 'invoiceNumber' | 'invoiceDate' | 'dueDate' | 'total', number>;
  lineItems: Array<{
    description: string | null;
    sku: string | null;
    quantity: number | null;
    unit: string | null;
    unitPrice: number | null;
    total: number | null;
    costCategory: string;
    evidence: PageEvidence[] | null;
  }>;
  evidence: PageEvidence[] | null;
  notes: string[];
  corrections: Array<{ field: Field; previousValue: string | null; value: string | null; correctedBy: string; correctedAt: string }>;
  vendor: {
    name: string;
    extractionAccuracy: { invoiceCount: number; correctedInvoices: number; correctedFields: number; accuracyPercent: number | null };
  } | null;
  original: { url: string; fileType: string; pageCount: number | null; fileName: string | null } | null;
}

/**
 * Below this, a field is marked for checking. Extraction's confidences are calibrated (docs/decisions.md): at 90 and
 * above a value is right about 97% of the time; under 80 it is worth a look against the original.
 */
export const LOW_CONFIDENCE = 80;

const FIELDS: ReadonlyArray<readonly [Field, string, 'text' | 'date' | 'money']> = [
  ['vendorName', 'Vendor', 'text'],
  ['invoiceNumber', 'Invoice number', 'text'],
  ['invoiceDate', 'Invoice date', 'date'],
  ['dueDate', 'Due date', 'date'],
  ['subtotal', 'Subtotal', 'money'],
  ['tax', 'Tax', 'money'],
  ['total', 'Total', 'money'],
];

/** The original beside the fields: an image as is, a PDF drawn page by page by pdf.js in the browser. */
function original(o: Detail['original']): string {
  if (!o)
    return empty(
      'The original file was not kept for this invoice (uploads on the Extraction API tier, or with keepFile false). Upload it again to keep it with the invoice.',
    );
  const path = new URL(o.url).pathname + new URL(o.url).search;
  const open = `<a href="${esc(path)}" target="_blank" rel="noopener">Open the original${o.fileName ? ` (${esc(o.fileName)})` : ''}</a>`;
  if (o.fileType === 'xml') return `<p>This invoice arrived as e-invoice data (XML): there is no page to show.</p><p>${open}</p>`;
  if (o.fileType !== 'pdf')
    return `<div class="original-frame"><img class="original-image" src="${esc(path)}" alt="The original invoice"></div><p class="note">${open}</p>`;
  return `<div class="pdf-viewer" data-src="${esc(path)}" data-pages="${esc(o.pageCount ?? 1)}">
<canvas aria-label="Page 1 of the original invoice" role="img"></canvas>
<p class="pdf-nav"${(o.pageCount ?? 1) > 1 ? '' : ' hidden'}><button type="button" data-step="-1" disabled>← Page</button> <span class="pdf-page">Page 1 of ${esc(o.pageCount ?? 1)}</span> <button type="button" data-step="1"${(o.pageCount ?? 1) > 1 ? '' : ' disabled'}>Page →</button></p>
<p class="note">${open}</p></div>`;
}

/** One invoice: its original beside the extracted fields (low-confidence ones marked), corrections, line items. */
export const invoicePage: PageHandler = async (ctx) => {
  const id = ctx.params.id ?? '';
  const { invoice: i } = await ctx.gql<{ invoice: Detail }>(DETAIL, { id }).catch((err) => {
    // A malformed id is just another unknown invoice.
    throw err instanceof PageError && err.status === 400 ? new PageError(404, 'invoice not found') : err;
  });
  if (ctx.storeId && i.storeId !== ctx.storeId) throw new PageError(404, 'invoice not found');
  const confidence = (f: Field) => (f in i.fieldConfidences ? i.fieldConfidences[f as keyof Detail['fieldConfidences']] : null);
  const corrected = new Set(i.corrections.map((c) => c.field));
  const shown = (f: Field, kind: string) =>
    kind === 'money' ? money(i[f] as number | null, i.currency) : kind === 'date' ? day(i[f] as string | null) : ((i[f] as string | null) ?? '—');
  const rows = FIELDS.map(([f, name, kind]) => {
    const c = confidence(f);
    const low = i.status === 'processed' && !corrected.has(f) && c !== null && c < LOW_CONFIDENCE;
    const mark = corrected.has(f) ? '<span class="badge fixed">corrected</span>' : low ? '<span class="badge low">check</span>' : '';
    const value = marked(esc(shown(f, kind)), i.evidence, f, name);
    return { cls: low ? 'low' : null, cells: [esc(name), `${value} ${mark}`, c === null ? '—' : `<span class="num">${esc(c)}</span>`] };
  });
  const inputs = FIELDS.map(([f, name, kind]) => {
    const value = i[f] ?? '';
    const type = kind === 'date' ? 'date' : kind === 'money' ? 'number" step="0.01' : 'text';
    return `<label>${esc(name)} <input name="${f}" type="${type}" value="${esc(value)}" data-was="${esc(value)}"></label>`;
  }).join('\n');
  const acc = i.vendor?.extractionAccuracy;
  const lines = i.lineItems.map((l, n) => {
    const cell = (html: string, field: string, name: string) => marked(html, l.evidence, field, `Line ${n + 1} ${name}`);
    return [
      cell(esc(l.description ?? '—'), 'description', 'description'),
      cell(esc(l.sku ?? ''), 'sku', 'SKU'),
      cell(`<span class="num">${esc(l.quantity ?? '')}</span>`, 'quantity', 'quantity'),
      cell(esc(l.unit ?? ''), 'unit', 'unit'),
      cell(`<span class="num">${esc(money(l.unitPrice, i.currency))}</span>`, 'unitPrice', 'unit price'),
      cell(`<span class="num">${esc(money(l.total, i.currency))}</span>`, 'total', 'total'),
      `<span class="tag">${esc(label(l.costCategory))}</span>`,
    ];
  });
  const history = i.corrections.map((c) => [
    esc(FIELDS.find(([f]) => f === c.field)?.[1] ?? c.field),
    esc(c.previousValue ?? '—'),
    esc(c.value ?? '—'),
    esc(c.correctedBy),
    esc(dayOf(c.correctedAt)),
  ]);
  return {
    title: `${i.vendorName ?? 'Unknown vendor'} ${i.invoiceNumber ? `· ${i.invoiceNumber}` : ''}`.trim(),
    body: `<p><a href="/app/invoices">← All invoices</a></p>
${figures([
  ['Total', esc(money(i.total, i.currency))],
  ['Invoice date', esc(day(i.invoiceDate))],
  ['Status', `<span class="status status-${esc(i.status)}">${esc(i.status)}</span>`],
  ['Confidence', esc(i.extractionConfidence === null ? '—' : `${i.extractionConfidence} / 100`)],
])}
${i.error ? `<p class="error">${esc(i.error)}</p>` : ''}
<div class="invoice-split">
<section class="original"><h2>Original</h2>${original(i.original)}</section>
<section class="fields"><h2>Extracted fields</h2>
<p class="note">Fields marked <span class="badge low">check</span> were read with a confidence under ${LOW_CONFIDENCE}: compare them with the original. Point at a value (or tab to it) to see where it was read.</p>
${table(
  ['Field', 'Value', 'Confidence'],
  rows.map((r) => r.cells),
  ' class="fields-table"',
  rows.map((r) => r.cls),
)}
${
  i.status === 'processed'
    ? `<p><button type="button" id="correct-open" hidden>Correct fields</button></p>
<form id="correct" class="correct" data-invoice-id="${esc(i.id)}" hidden>
${inputs}
<p><button type="submit">Save corrections</button> <button type="button" id="correct-cancel" class="secondary">Cancel</button> <span id="correct-status" role="status"></span></p></form>`
    : ''
}
${acc && i.vendor ? `<p class="note">Extraction accuracy for ${esc(i.vendor.name)}: ${esc(percent(acc.accuracyPercent))} of fields right as read (${esc(acc.correctedFields)} corrected on ${esc(acc.correctedInvoices)} of ${esc(acc.invoiceCount)} invoices).</p>` : ''}
${i.notes.length ? `<ul class="notes">${i.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : ''}
</section></div>
${history.length ? `<section><h2>Corrections</h2>${table(['Field', 'Was', 'Now', 'By', 'On'], history)}</section>` : ''}
<section><h2>Line items</h2>
${lines.length ? table(['Description', 'SKU', 'Qty', 'Unit', 'Unit price', 'Total', 'Cost category'], lines, ' class="lines-table"') : empty('No line items were read. Compare with the original; the totals above still count in your spend.')}</section>`,
    scripts: ['/app/assets/invoice.mjs'],
  };
};
