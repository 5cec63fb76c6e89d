import { esc } from '../html.ts';
import { day, label, money } from './format.ts';

// A live list of invoices (the dashboard's recent ones, the invoices page): rendered here on load, kept live by
// assets/live-invoices.js, which builds the same cells for rows that arrive over graphql-ws.

/** The invoice fields a live list selects (the script selects the same). */
export const LIVE_INVOICE_FIELDS = 'id vendorName invoiceNumber invoiceDate dueDate total currency status costCategories';

export interface InvoiceListRow {
  id: string;
  vendorName: string | null;
  invoiceNumber: string | null;
  invoiceDate: string | null;
  dueDate: string | null;
  total: number | null;
  currency: string | null;
  status: string;
  costCategories: string[];
}

export type Column = 'vendor' | 'number' | 'date' | 'due' | 'total' | 'status' | 'categories';
const HEADINGS: Record<Column, string> = {
  vendor: 'Vendor',
  number: 'Number',
  date: 'Date',
  due: 'Due',
  total: 'Total',
  status: 'Status',
  categories: 'Cost categories',
};

const CELLS: Record<Column, (r: InvoiceListRow) => string> = {
  vendor: (r) => `<a href="/app/invoices/${esc(r.id)}">${esc(r.vendorName ?? (r.status === 'processing' ? 'Reading…' : 'Unknown vendor'))}</a>`,
  number: (r) => `<span class="nowrap">${esc(r.invoiceNumber ?? '—')}</span>`,
  date: (r) => `<span class="nowrap">${esc(day(r.invoiceDate))}</span>`,
  due: (r) => `<span class="nowrap">${esc(day(r.dueDate))}</span>`,
  total: (r) => `<span class="num">${esc(money(r.total, r.currency))}</span>`,
  status: (r) => `<span class="status status-${esc(r.status)}">${esc(r.status)}</span>`,
  categories: (r) => r.costCategories.map((c) => `<span class="tag">${esc(label(c))}</span>`).join(' '),
};

/**
 * The table with its rows, the live-status line and (when there are no rows) the empty state, which the script
 * removes when the first row arrives. `live`: kept up to date over graphql-ws (the newest page only).
 */
export function liveInvoiceTable(o: {
  rows: InvoiceListRow[];
  columns: readonly Column[];
  storeId: string | null;
  limit: number;
  live: boolean;
  emptyHtml: string;
}): string {
  // Each cell is classed by its column (c-due, …): a phone hides the ones it has no room for.
  const head = o.columns.map((c) => `<th scope="col" class="c-${c}">${esc(HEADINGS[c])}</th>`).join('');
  const body = o.rows
    .map((r) => `<tr data-invoice-id="${esc(r.id)}">${o.columns.map((c) => `<td class="c-${c}">${CELLS[c](r)}</td>`).join('')}</tr>`)
    .join('\n');
  const status = o.live ? '<p id="live-status" class="live" data-state="connecting" role="status">Live updates: connecting…</p>' : '';
  const attrs = o.live ? ` id="live-invoices" data-store-id="${esc(o.storeId ?? '')}" data-limit="${o.limit}" data-columns="${o.columns.join(' ')}"` : '';
  return `${status}<div class="table-wrap"><table${attrs}><thead><tr>${head}</tr></thead>
<tbody>${body}</tbody></table></div>
${o.rows.length ? '' : `<p class="empty" id="live-empty">${o.emptyHtml}</p>`}`;
}

/** The scripts a page with a live list loads. */
export const LIVE_SCRIPTS = ['/app/assets/graphql-ws.min.js', '/app/assets/live-invoices.js'];
