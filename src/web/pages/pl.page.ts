import { esc } from '../html.ts';
import { barChart } from './chart.ts';
import { day, label, money } from './format.ts';
import { empty, figures, table } from './layout.ts';
import { type PageHandler, param } from './page.ts';

const QUERY = `query SpendPage($storeId: UUID, $start: Date, $end: Date) {
  spendReport(storeId: $storeId, startDate: $start, endDate: $end) {
    startDate endDate total invoiceCount
    byCategory { category total }
    byVendor { vendorName total invoiceCount }
  }
}`;

interface Data {
  spendReport: {
    startDate: string;
    endDate: string;
    total: number;
    invoiceCount: number;
    byCategory: Array<{ category: string; total: number }>;
    byVendor: Array<{ vendorName: string; total: number; invoiceCount: number }>;
  };
}

const TOP_VENDORS = 10;
const cell = (v: number) => `<span class="num">${esc(money(v))}</span>`;

/** P&L (also /app/reports): spend per cost category and per vendor for ?from=&to= (default this month). */
export const plPage: PageHandler = async (ctx) => {
  const from = param(ctx.query, 'from');
  const to = param(ctx.query, 'to');
  const { spendReport: r } = await ctx.gql<Data>(QUERY, { storeId: ctx.storeId, start: from ?? null, end: to ?? null });
  const categories = r.byCategory.map((c) => ({ label: label(c.category), value: c.total }));
  const vendors = r.byVendor.slice(0, TOP_VENDORS).map((v) => ({ label: v.vendorName, value: v.total }));
  const form = `<form class="period" method="get">
<label>From <input type="date" name="from" value="${esc(r.startDate)}" required></label>
<label>To <input type="date" name="to" value="${esc(r.endDate)}" required></label>
<button type="submit">Show</button></form>`;
  return {
    title: 'Profit & loss: spend',
    body: `${form}
${figures([
  ['Period', esc(`${day(r.startDate)} – ${day(r.endDate)}`)],
  ['Spend', esc(money(r.total))],
  ['Invoices', esc(String(r.invoiceCount))],
])}
<section><h2>By cost category</h2><p class="note">Line items before tax</p>
${
  categories.length
    ? barChart('Spend by cost category', categories, (v) => money(v)) +
      table(
        ['Cost category', 'Spend'],
        categories.map((c) => [esc(c.label), cell(c.value)]),
        ' class="compact"',
      )
    : empty('No spend in this period.')
}</section>
<section><h2>By vendor</h2><p class="note">Invoice totals including tax${r.byVendor.length > TOP_VENDORS ? ` · chart: top ${TOP_VENDORS}` : ''}</p>
${
  r.byVendor.length
    ? barChart('Spend by vendor', vendors, (v) => money(v)) +
      table(
        ['Vendor', 'Invoices', 'Spend'],
        r.byVendor.map((v) => [esc(v.vendorName), `<span class="num">${esc(String(v.invoiceCount))}</span>`, cell(v.total)]),
        ' class="compact"',
      )
    : empty('No invoices in this period.')
}</section>`,
  };
};
