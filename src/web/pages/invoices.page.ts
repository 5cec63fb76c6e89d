import { esc } from '../html.ts';
import { day, label, money } from './format.ts';
import { empty, figures, table } from './layout.ts';
import { PageError } from './page-graphql.ts';
import { type PageHandler, param } from './page.ts';

const PAGE_SIZE = 25;

const LIST = `query InvoicePage($storeId: UUID, $first: Int!, $after: String) {
  invoices(first: $first, after: $after, filter: { storeId: $storeId }) {
    nodes { id vendorName invoiceNumber invoiceDate dueDate total currency status costCategories }
    pageInfo { hasNextPage endCursor }
  }
}`;

const DETAIL = `query InvoiceDetail($id: UUID!) {
  invoice(id: $id) {
    id storeId vendorName invoiceNumber invoiceDate dueDate subtotal tax total currency status error extractionConfidence createdAt
    costCategories
    lineItems { description sku quantity unit unitPrice total costCategory }
  }
}`;

interface ListRow {
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

interface Detail extends ListRow {
  storeId: string | null;
  subtotal: number | null;
  tax: number | null;
  error: string | null;
  lineItems: Array<{
    description: string | null;
    sku: string | null;
    quantity: number | null;
    unit: string | null;
    unitPrice: number | null;
    total: number | null;
    costCategory: string;
  }>;
}

const categoryTags = (codes: readonly string[]) => codes.map((c) => `<span class="tag">${esc(label(c))}</span>`).join(' ');

/** Newest first, PAGE_SIZE a page (forward cursor in ?after=). */
export const invoicesPage: PageHandler = async (ctx) => {
  const after = param(ctx.query, 'after');
  const { invoices } = await ctx.gql<{ invoices: { nodes: ListRow[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } }>(LIST, {
    storeId: ctx.storeId,
    first: PAGE_SIZE,
    after: after ?? null,
  });
  const rows = invoices.nodes.map((r) => [
    `<a href="/app/invoices/${esc(r.id)}">${esc(r.vendorName ?? 'Unknown vendor')}</a>`,
    esc(r.invoiceNumber ?? '—'),
    esc(day(r.invoiceDate)),
    esc(day(r.dueDate)),
    `<span class="num">${esc(money(r.total, r.currency))}</span>`,
    `<span class="status status-${esc(r.status)}">${esc(r.status)}</span>`,
    categoryTags(r.costCategories),
  ]);
  const pager = [
    after ? '<a href="/app/invoices">← Newest</a>' : '',
    invoices.pageInfo.hasNextPage && invoices.pageInfo.endCursor
      ? `<a href="/app/invoices?after=${encodeURIComponent(invoices.pageInfo.endCursor)}">Older →</a>`
      : '',
  ].filter(Boolean);
  return {
    title: 'Invoices',
    body: `${rows.length ? table(['Vendor', 'Number', 'Date', 'Due', 'Total', 'Status', 'Cost categories'], rows) : empty('No invoices.')}
${pager.length ? `<nav class="pager">${pager.join(' ')}</nav>` : ''}`,
  };
};

/** One invoice with its line items and their cost categories. */
export const invoicePage: PageHandler = async (ctx) => {
  const id = ctx.params.id ?? '';
  const { invoice: i } = await ctx.gql<{ invoice: Detail }>(DETAIL, { id }).catch((err) => {
    // A malformed id is just another unknown invoice.
    throw err instanceof PageError && err.status === 400 ? new PageError(404, 'invoice not found') : err;
  });
  if (ctx.storeId && i.storeId !== ctx.storeId) throw new PageError(404, 'invoice not found');
  const lines = i.lineItems.map((l) => [
    esc(l.description ?? '—'),
    esc(l.sku ?? ''),
    `<span class="num">${esc(l.quantity ?? '')}</span>`,
    esc(l.unit ?? ''),
    `<span class="num">${esc(money(l.unitPrice, i.currency))}</span>`,
    `<span class="num">${esc(money(l.total, i.currency))}</span>`,
    `<span class="tag">${esc(label(l.costCategory))}</span>`,
  ]);
  return {
    title: `${i.vendorName ?? 'Unknown vendor'} ${i.invoiceNumber ? `· ${i.invoiceNumber}` : ''}`.trim(),
    body: `<p><a href="/app/invoices">← All invoices</a></p>
${figures([
  ['Invoice date', esc(day(i.invoiceDate))],
  ['Due', esc(day(i.dueDate))],
  ['Subtotal', esc(money(i.subtotal, i.currency))],
  ['Tax', esc(money(i.tax, i.currency))],
  ['Total', esc(money(i.total, i.currency))],
  ['Status', `<span class="status status-${esc(i.status)}">${esc(i.status)}</span>`],
])}
${i.error ? `<p class="error">${esc(i.error)}</p>` : ''}
<section><h2>Line items</h2>
${lines.length ? table(['Description', 'SKU', 'Qty', 'Unit', 'Unit price', 'Total', 'Cost category'], lines) : empty('No line items were read.')}</section>
<section><h2>Cost categories</h2><p>${i.costCategories.length ? categoryTags(i.costCategories) : '—'}</p></section>`,
  };
};
