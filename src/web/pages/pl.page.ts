import { esc } from '../html.ts';
import { CHART_SCRIPTS, chart } from './chart.ts';
import { day, days, hours, label, money, percent, storeName } from './format.ts';
import { empty, figures, table } from './layout.ts';
import type { PageHandler } from './page.ts';
import type { ProfitAndLoss } from '../../modules/pnl/pnl.service.ts';
import { periodOf, periodPicker } from './period.ts';

const FIGURES = 'netSales costOfGoods costOfGoodsPercent laborCost laborPercent primeCost primeCostPercent';
const QUERY = `query ProfitAndLossPage($storeId: UUID, $period: ProfitAndLossPeriod, $start: Date, $end: Date) {
  stores { id name externalStoreId }
  profitAndLoss(storeId: $storeId, period: $period, startDate: $start, endDate: $end) {
    period startDate endDate ${FIGURES}
    costOfGoodsByCategory { category amount percentOfSales }
    laborHours overtimeHours overtimeCost otherExpenses otherExpensesPercent otherExpensesByCategory { category amount percentOfSales }
    operatingProfit operatingProfitPercent invoiceCount
    weekly { weekStart startDate endDate partial ${FIGURES} }
    byStore { storeId store { name externalStoreId } ${FIGURES} }
  }
}`;

interface Data {
  stores: Array<{ id: string; name: string | null; externalStoreId: string }>;
  // The API's shape (the query selects all of it), each store with its record.
  profitAndLoss: Omit<ProfitAndLoss, 'byStore'> & {
    byStore: Array<ProfitAndLoss['byStore'][number] & { store: { name: string | null; externalStoreId: string } | null }>;
  };
}

const num = (text: string) => `<span class="num">${esc(text)}</span>`;
const line = (name: string, amount: number, share: number | null, cls = '') =>
  `<tr${cls ? ` class="${cls}"` : ''}><th scope="row">${name}</th><td>${num(money(amount))}</td><td>${num(percent(share))}</td></tr>`;
const shareCard = (amount: number, share: number | null) =>
  `${esc(money(amount))}<small>${share === null ? 'no sales to compare' : `${esc(percent(share))} of sales`}</small>`;

/** P&L: sales, cost of goods by category, labor, prime cost (each as % of sales), per week and per store. */
export const plPage: PageHandler = async (ctx) => {
  const choice = periodOf(ctx);
  const { stores, profitAndLoss: p } = await ctx.gql<Data>(QUERY, { storeId: choice.storeId, period: choice.period, start: choice.from, end: choice.to });
  const statement = [
    line('Net sales', p.netSales, p.netSales > 0 ? 100 : null, 'total'),
    line('Cost of goods', p.costOfGoods, p.costOfGoodsPercent, 'group'),
    ...p.costOfGoodsByCategory.map((c) => line(esc(label(c.category)), c.amount, c.percentOfSales, 'sub')),
    line(
      `Labor <span class="note">${esc(hours(p.laborHours))} h, ${esc(hours(p.overtimeHours))} h overtime (${esc(money(p.overtimeCost))})</span>`,
      p.laborCost,
      p.laborPercent,
      'group',
    ),
    line('Prime cost', p.primeCost, p.primeCostPercent, 'total'),
    line('Other invoiced expenses', p.otherExpenses, p.otherExpensesPercent, 'group'),
    ...p.otherExpensesByCategory.map((c) => line(esc(label(c.category)), c.amount, c.percentOfSales, 'sub')),
    line('Operating profit', p.operatingProfit, p.operatingProfitPercent, 'total'),
  ].join('\n');
  const trend = chart({
    title: 'Net sales and prime cost per week, with prime cost as % of sales',
    labels: p.weekly.map((w) => days(w.startDate, w.endDate)),
    series: [
      { label: 'Net sales', values: p.weekly.map((w) => w.netSales), color: 'muted' },
      { label: 'Cost of goods', values: p.weekly.map((w) => w.costOfGoods), stack: 'prime', color: 'brand' },
      { label: 'Labor', values: p.weekly.map((w) => w.laborCost), stack: 'prime', color: 'warn' },
      { label: 'Prime cost %', values: p.weekly.map((w) => w.primeCostPercent), type: 'line', axis: 'right', color: 'bad' },
    ],
    format: 'money',
    rightFormat: 'percent',
  });
  const weekRows = p.weekly.map((w) => [
    `<span class="nowrap">${esc(days(w.startDate, w.endDate))}</span>` + (w.partial ? ' <span class="note">so far</span>' : ''),
    num(money(w.netSales)),
    num(percent(w.costOfGoodsPercent)),
    num(percent(w.laborPercent)),
    num(percent(w.primeCostPercent)),
  ]);
  const storeRows = p.byStore.map((s) => [
    esc(s.store ? storeName(s.store) : 'Not assigned to a store'),
    num(money(s.netSales)),
    num(`${money(s.costOfGoods)} · ${percent(s.costOfGoodsPercent)}`),
    num(`${money(s.laborCost)} · ${percent(s.laborPercent)}`),
    num(`${money(s.primeCost)} · ${percent(s.primeCostPercent)}`),
  ]);
  const hints = [
    p.netSales === 0
      ? 'No sales are recorded for this period, so there are no percentages. Sales come from your point-of-sale export: ask your administrator to import it (GraphQL importPosSales), or pick a period that has sales.'
      : null,
    p.invoiceCount === 0 ? 'No invoices are dated in this period. Upload your vendor invoices on the Invoices page to see your cost of goods.' : null,
  ].filter((h): h is string => h !== null);
  return {
    title: 'Profit & loss',
    body: `${periodPicker('/app/pl', choice, p, ctx.storeId ? null : stores)}
<p class="note">${esc(`${day(p.startDate)} – ${day(p.endDate)}`)} · cost of goods from ${esc(String(p.invoiceCount))} invoice${p.invoiceCount === 1 ? '' : 's'} by invoice date (line items before tax) · labor from time punches, overtime at 1.5×</p>
${hints.map(empty).join('\n')}
${figures([
  ['Net sales', esc(money(p.netSales))],
  ['Cost of goods', shareCard(p.costOfGoods, p.costOfGoodsPercent)],
  ['Labor', shareCard(p.laborCost, p.laborPercent)],
  ['Prime cost', shareCard(p.primeCost, p.primeCostPercent)],
])}
<section><h2>Statement</h2>
<table class="statement"><thead><tr><th scope="col">Line</th><th scope="col">Amount</th><th scope="col">% of sales</th></tr></thead><tbody>
${statement}
</tbody></table>
<p class="note">Operating profit counts only costs that arrive as an invoice or a punch: rent paid by transfer, payroll taxes and card fees are not in it.</p></section>
<section><h2>Weekly trend</h2>
${trend}
${table(['Week', 'Sales', 'COGS %', 'Labor %', 'Prime %'], weekRows, ' class="compact weeks"')}</section>
${storeRows.length > 1 || !ctx.storeId ? `<section><h2>By store</h2>${storeRows.length ? table(['Store', 'Net sales', 'Cost of goods', 'Labor', 'Prime cost'], storeRows) : empty('No store has sales, costs or labor in this period.')}</section>` : ''}`,
    scripts: CHART_SCRIPTS,
  };
};
