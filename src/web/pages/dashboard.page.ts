import { esc } from '../html.ts';
import { CHART_SCRIPTS, chart } from './chart.ts';
import { day, label, money } from './format.ts';
import { type InvoiceListRow, LIVE_INVOICE_FIELDS, LIVE_SCRIPTS, liveInvoiceTable } from './invoice-rows.ts';
import { empty, figures, table } from './layout.ts';
import type { PageContext, PageHandler } from './page.ts';

export const RECENT_LIMIT = 10;

const RECENT = `query DashboardRecent($storeId: UUID, $first: Int!) {
  invoices(first: $first, filter: { storeId: $storeId }) { nodes { ${LIVE_INVOICE_FIELDS} } }
}`;
const SPEND = `query DashboardSpend($storeId: UUID) {
  spendReport(storeId: $storeId) { startDate endDate total invoiceCount byCategory { category total } }
}`;

interface Spend {
  startDate: string;
  endDate: string;
  total: number;
  invoiceCount: number;
  byCategory: Array<{ category: string; total: number }>;
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
  const { invoices } = await ctx.gql<{ invoices: { nodes: InvoiceListRow[] } }>(RECENT, { storeId: ctx.storeId, first: RECENT_LIMIT });
  const recent = liveInvoiceTable({
    rows: invoices.nodes,
    columns: ['vendor', 'number', 'date', 'total', 'status'],
    storeId: ctx.storeId,
    limit: RECENT_LIMIT,
    live: true,
    emptyHtml: 'No invoices yet. <a href="/app/invoices">Upload one on the Invoices page</a> (drop a PDF or a photo): it appears here as soon as it is read.',
  });
  return {
    title: 'Dashboard',
    body: `<section><h2>Recent invoices</h2>
${recent}</section>
<section id="spend">${await spendHtml(ctx)}</section>`,
    scripts: [...LIVE_SCRIPTS, ...CHART_SCRIPTS],
  };
};

/** GET /app/dashboard/spend: the spend section alone (the dashboard swaps it in after a live invoice). */
export const dashboardSpendFragment: PageHandler = async (ctx) => ({ title: 'Spend this month', body: await spendHtml(ctx), fragment: true });
