import { esc } from '../html.ts';
import { CHART_SCRIPTS, chart } from './chart.ts';
import { day, label, money } from './format.ts';
import { empty, figures, table } from './layout.ts';
import type { PageContext, PageHandler } from './page.ts';

export const RECENT_LIMIT = 10;

const RECENT = `query DashboardRecent($storeId: UUID, $first: Int!) {
  invoices(first: $first, filter: { storeId: $storeId }) { nodes { id vendorName invoiceNumber invoiceDate total currency status } }
}`;
const SPEND = `query DashboardSpend($storeId: UUID) {
  spendReport(storeId: $storeId) { startDate endDate total invoiceCount byCategory { category total } }
}`;

interface Row {
  id: string;
  vendorName: string | null;
  invoiceNumber: string | null;
  invoiceDate: string | null;
  total: number | null;
  currency: string | null;
  status: string;
}
interface Spend {
  startDate: string;
  endDate: string;
  total: number;
  invoiceCount: number;
  byCategory: Array<{ category: string; total: number }>;
}

/** One row of the recent-invoices table; assets/dashboard.js builds the same cells for live rows. */
function invoiceRow(r: Row): string {
  const cells = [
    `<a href="/app/invoices/${esc(r.id)}">${esc(r.vendorName ?? 'Unknown vendor')}</a>`,
    esc(r.invoiceNumber ?? '—'),
    esc(day(r.invoiceDate)),
    `<span class="num">${esc(money(r.total, r.currency))}</span>`,
    `<span class="status status-${esc(r.status)}">${esc(r.status)}</span>`,
  ];
  return `<tr data-invoice-id="${esc(r.id)}">${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
}

/** This month's spend: figures, a chart and a table per cost category (also served alone, for live refreshes). */
async function spendHtml(ctx: PageContext): Promise<string> {
  const { spendReport: s } = await ctx.gql<{ spendReport: Spend }>(SPEND, { storeId: ctx.storeId });
  const categories = s.byCategory.map((c) => ({ label: label(c.category), value: c.total }));
  const spendChart = categories.length
    ? chart({
        title: 'Spend this month by cost category',
        labels: categories.map((c) => c.label),
        series: [{ label: 'Spend', values: categories.map((c) => c.value) }],
        format: 'money',
        horizontal: true,
      }) +
      table(
        ['Cost category', 'Spend'],
        categories.map((c) => [esc(c.label), `<span class="num">${esc(money(c.value))}</span>`]),
        ' class="compact"',
      )
    : empty('No spend this month yet: upload your vendor invoices on the Invoices page and their line items show here by cost category.');
  return `<h2>Spend this month</h2><p class="note">${esc(`${day(s.startDate)} – ${day(s.endDate)}`)} · per cost category: line items before tax</p>
${figures([
  ['Spend', esc(money(s.total))],
  ['Invoices', esc(String(s.invoiceCount))],
])}
${spendChart}`;
}

/** Recent invoices (kept live over graphql-ws by assets/dashboard.js) and this month's spend per category. */
export const dashboardPage: PageHandler = async (ctx) => {
  const { invoices } = await ctx.gql<{ invoices: { nodes: Row[] } }>(RECENT, { storeId: ctx.storeId, first: RECENT_LIMIT });
  const rows = invoices.nodes.map(invoiceRow);
  return {
    title: 'Dashboard',
    body: `<section><div class="section-head"><h2>Recent invoices</h2>
<p id="live-status" class="live" data-state="connecting" role="status">Live updates: connecting…</p></div>
<table id="recent" data-store-id="${esc(ctx.storeId ?? '')}" data-limit="${RECENT_LIMIT}">
<thead><tr><th scope="col">Vendor</th><th scope="col">Number</th><th scope="col">Date</th><th scope="col">Total</th><th scope="col">Status</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
${rows.length ? '' : '<p class="empty" id="recent-empty">No invoices yet. <a href="/app/invoices">Upload one on the Invoices page</a> (drop a PDF or a photo): it appears here as soon as it is read.</p>'}</section>
<section id="spend">${await spendHtml(ctx)}</section>`,
    scripts: ['/app/assets/graphql-ws.min.js', '/app/assets/dashboard.js', ...CHART_SCRIPTS],
  };
};

/** GET /app/dashboard/spend: the spend section alone (the dashboard swaps it in after a live invoice). */
export const dashboardSpendFragment: PageHandler = async (ctx) => ({ title: 'Spend this month', body: await spendHtml(ctx), fragment: true });
