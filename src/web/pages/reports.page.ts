import { esc } from '../html.ts';
import { CHART_SCRIPTS, chart } from './chart.ts';
import { toCsv } from './csv.ts';
import { day, days, hours, money, percent } from './format.ts';
import { empty, figures, table } from './layout.ts';
import type { PageContext, PageHandler } from './page.ts';
import { periodDays, periodOf, periodPicker } from './period.ts';

// The reports a manager downloads: the labor report (per employee and week) and vendor spend (per vendor, with how
// often extraction had to be corrected), each as a page and as CSV from the same GraphQL operation.
const QUERY = `query ReportsPage($storeId: UUID, $start: Date, $end: Date) {
  stores { id name externalStoreId }
  laborReport(storeId: $storeId, startDate: $start, endDate: $end) {
    summary { startDate endDate scheduledHours actualHours varianceHours variancePercent regularHours overtimeHours laborCost overtimeCost netSales laborCostPercent }
    weekly { weekStart startDate endDate scheduledHours actualHours overtimeHours laborCost netSales laborCostPercent }
    employees { name position hourlyRate scheduledHours actualHours varianceHours regularHours overtimeHours laborCost shiftCount punchCount }
  }
  spendReport(storeId: $storeId, startDate: $start, endDate: $end) {
    startDate endDate total invoiceCount
    byVendor { vendorId vendorName total invoiceCount }
  }
}`;

type N = number;
interface Data {
  stores: Array<{ id: string; name: string | null; externalStoreId: string }>;
  laborReport: {
    summary: Record<'scheduledHours' | 'actualHours' | 'varianceHours' | 'regularHours' | 'overtimeHours' | 'laborCost' | 'overtimeCost' | 'netSales', N> & {
      startDate: string;
      endDate: string;
      variancePercent: N | null;
      laborCostPercent: N | null;
    };
    weekly: Array<
      Record<'scheduledHours' | 'actualHours' | 'overtimeHours' | 'laborCost' | 'netSales', N> & {
        weekStart: string;
        startDate: string;
        endDate: string;
        laborCostPercent: N | null;
      }
    >;
    employees: Array<
      Record<
        'hourlyRate' | 'scheduledHours' | 'actualHours' | 'varianceHours' | 'regularHours' | 'overtimeHours' | 'laborCost' | 'shiftCount' | 'punchCount',
        N
      > & {
        name: string;
        position: string | null;
      }
    >;
  };
  spendReport: {
    startDate: string;
    endDate: string;
    total: N;
    invoiceCount: N;
    byVendor: Array<{ vendorId: string | null; vendorName: string; total: N; invoiceCount: N }>;
  };
}

async function load(ctx: PageContext) {
  const choice = periodOf(ctx);
  const { start, end } = periodDays(choice, ctx.now);
  return { choice, data: await ctx.gql<Data>(QUERY, { storeId: choice.storeId, start, end }) };
}

const num = (text: string) => `<span class="num">${esc(text)}</span>`;
const TOP_VENDORS = 10;

export const reportsPage: PageHandler = async (ctx) => {
  const { choice, data } = await load(ctx);
  const { summary: s, employees, weekly } = data.laborReport;
  const spend = data.spendReport;
  const query = new URLSearchParams(
    Object.entries({ period: choice.period, from: choice.from, to: choice.to, store: ctx.storeId ? null : choice.storeId }).filter(
      (e): e is [string, string] => !!e[1],
    ),
  );
  const csvLink = (name: string, text: string) => `<a class="button" href="/app/reports/${name}.csv?${esc(query.toString())}" download>${esc(text)}</a>`;
  const people = employees.map((e) => [
    esc(e.name) + (e.position ? ` <span class="note">${esc(e.position)}</span>` : ''),
    num(hours(e.scheduledHours)),
    num(hours(e.actualHours)),
    num(hours(e.varianceHours)),
    e.overtimeHours > 0 ? `<span class="badge ot">${esc(hours(e.overtimeHours))} h</span>` : num('0'),
    num(money(e.laborCost)),
  ]);
  const weeks = weekly.map((w) => [
    `<span class="nowrap">${esc(days(w.startDate, w.endDate))}</span>`,
    num(hours(w.actualHours)),
    num(hours(w.overtimeHours)),
    num(money(w.laborCost)),
    num(percent(w.laborCostPercent)),
  ]);
  const vendors = spend.byVendor.map((v) => [esc(v.vendorName), num(String(v.invoiceCount)), num(money(v.total))]);
  const top = spend.byVendor.slice(0, TOP_VENDORS);
  return {
    title: 'Reports',
    body: `${periodPicker('/app/reports', choice, { startDate: s.startDate, endDate: s.endDate }, ctx.storeId ? null : data.stores)}
<section><div class="section-head"><h2>Labor</h2>${csvLink('labor', 'Download labor CSV')}</div>
<p class="note">${esc(`${day(s.startDate)} – ${day(s.endDate)}`)} · scheduled hours from published schedules, worked hours from punches, overtime past 40 h a week at 1.5×</p>
${figures([
  ['Worked', esc(`${hours(s.actualHours)} h`)],
  ['Scheduled', esc(`${hours(s.scheduledHours)} h`)],
  ['Overtime', esc(`${hours(s.overtimeHours)} h · ${money(s.overtimeCost)}`)],
  ['Labor cost', esc(money(s.laborCost))],
  ['Labor % of sales', esc(percent(s.laborCostPercent))],
])}
${
  people.length
    ? table(
        ['Employee', 'Scheduled h', 'Worked h', 'Variance h', 'Overtime', 'Labor cost'],
        people,
        '',
        employees.map((e) => (e.overtimeHours > 0 ? 'ot' : null)),
      ) + table(['Week', 'Worked h', 'Overtime h', 'Labor cost', 'Labor % of sales'], weeks, ' class="compact"')
    : empty('No shifts or punches in this period. Pick another period, or check that schedules are published and staff clock in.')
}</section>
<section><div class="section-head"><h2>Vendor spend</h2>${csvLink('vendors', 'Download vendor CSV')}</div>
<p class="note">${esc(`${day(spend.startDate)} – ${day(spend.endDate)}`)} · ${esc(String(spend.invoiceCount))} processed invoices by invoice date, totals including tax · ${esc(money(spend.total))} in all</p>
${
  vendors.length
    ? chart({
        title: `Spend by vendor${spend.byVendor.length > TOP_VENDORS ? ` (top ${TOP_VENDORS})` : ''}`,
        labels: top.map((v) => v.vendorName),
        series: [{ label: 'Spend', values: top.map((v) => v.total) }],
        format: 'money',
        horizontal: true,
      }) + table(['Vendor', 'Invoices', 'Spend'], vendors)
    : empty('No invoices in this period. Upload vendor invoices on the Invoices page, or pick another period.')
}</section>`,
    scripts: CHART_SCRIPTS,
  };
};

const fileDates = (s: { startDate: string; endDate: string }) => `${s.startDate}_${s.endDate}`;

/** GET /app/reports/labor.csv: one row per employee, then the totals. */
export const laborCsv: PageHandler = async (ctx) => {
  const { summary: s, employees } = (await load(ctx)).data.laborReport;
  const rows = employees.map((e) => [
    e.name,
    e.position,
    e.hourlyRate,
    e.scheduledHours,
    e.actualHours,
    e.varianceHours,
    e.regularHours,
    e.overtimeHours,
    e.laborCost,
    e.shiftCount,
    e.punchCount,
  ]);
  rows.push(['Total', null, null, s.scheduledHours, s.actualHours, s.varianceHours, s.regularHours, s.overtimeHours, s.laborCost, null, null]);
  const header = [
    'employee',
    'position',
    'hourly_rate',
    'scheduled_hours',
    'worked_hours',
    'variance_hours',
    'regular_hours',
    'overtime_hours',
    'labor_cost',
    'shifts',
    'punches',
  ];
  return { title: 'labor', body: toCsv(header, rows), download: { filename: `labor_${fileDates(s)}.csv` } };
};

/** GET /app/reports/vendors.csv: one row per vendor, then the total. */
export const vendorsCsv: PageHandler = async (ctx) => {
  const spend = (await load(ctx)).data.spendReport;
  const rows: Array<Array<string | number | null>> = spend.byVendor.map((v) => [v.vendorName, v.invoiceCount, v.total]);
  rows.push(['Total', spend.invoiceCount, spend.total]);
  return { title: 'vendors', body: toCsv(['vendor', 'invoices', 'spend'], rows), download: { filename: `vendor-spend_${fileDates(spend)}.csv` } };
};
