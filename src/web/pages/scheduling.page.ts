import { esc } from '../html.ts';
import { CHART_SCRIPTS, chart } from './chart.ts';
import { day, days, hours, money, percent, storeName, weekday, weekOf } from './format.ts';
import { empty, figures, table } from './layout.ts';
import type { PageHandler } from './page.ts';

// This week to date: the hours scheduled up to now against the hours worked up to now (laborReport with asOf), so
// mid-week the variance compares like with like; the whole week's schedule is shown beside it, not mixed in.
const QUERY = `query SchedulingPage($storeId: UUID, $start: Date!, $today: Date!, $weekEnd: Date!, $asOf: DateTime!) {
  stores { id name externalStoreId }
  schedules(storeId: $storeId) { id storeId weekStart weekEnd status totalHours shifts { id } }
  toDate: laborReport(storeId: $storeId, startDate: $start, endDate: $today, asOf: $asOf) {
    summary { scheduledHours actualHours varianceHours variancePercent overtimeHours laborCost netSales laborCostPercent employeeCount }
    daily { date scheduledHours actualHours varianceHours overtimeHours laborCost }
    employees { employeeId name position scheduledHours actualHours varianceHours overtimeHours laborCost }
  }
  week: laborReport(storeId: $storeId, startDate: $start, endDate: $weekEnd) { summary { scheduledHours } }
}`;

type Hours = Record<'scheduledHours' | 'actualHours' | 'varianceHours' | 'overtimeHours' | 'laborCost', number>;
interface Data {
  stores: Array<{ id: string; name: string | null; externalStoreId: string }>;
  schedules: Array<{ id: string; storeId: string; weekStart: string; weekEnd: string; status: string; totalHours: number; shifts: unknown[] }>;
  toDate: {
    summary: Hours & { variancePercent: number | null; netSales: number; laborCostPercent: number | null; employeeCount: number };
    daily: Array<Hours & { date: string }>;
    employees: Array<Hours & { employeeId: string; name: string; position: string | null }>;
  };
  week: { summary: { scheduledHours: number } };
}

const SHOWN_SCHEDULES = 20;
const num = (text: string, cls = '') => `<span class="num${cls ? ` ${cls}` : ''}">${esc(text)}</span>`;
const signed = (v: number) => `${v > 0 ? '+' : ''}${hours(v)}`;
/** Over schedule is the manager's cost to watch (orange), under it a gap in cover (muted). */
const varianceCell = (v: number) => num(`${signed(v)} h`, v > 0 ? 'over' : v < 0 ? 'under' : '');
const overtimeCell = (v: number) => (v > 0 ? `<span class="badge ot">${esc(hours(v))} h overtime</span>` : num('0'));

/** This week to date (Sunday through now, UTC days): scheduled against worked per day and per employee. */
export const schedulingPage: PageHandler = async (ctx) => {
  const week = weekOf(ctx.now);
  const today = ctx.now.toISOString().slice(0, 10);
  const data = await ctx.gql<Data>(QUERY, { storeId: ctx.storeId, start: week.start, today, weekEnd: week.end, asOf: ctx.now.toISOString() });
  const names = new Map(data.stores.map((s) => [s.id, storeName(s)]));
  const { summary: s, daily, employees } = data.toDate;
  const schedules = data.schedules.slice(0, SHOWN_SCHEDULES).map((sc) => [
    `<span class="nowrap">${esc(days(sc.weekStart, sc.weekEnd))}</span>`,
    // A store-scoped user's schedules are all their store's: no column for it.
    ...(ctx.storeId ? [] : [esc(names.get(sc.storeId) ?? '—')]),
    `<span class="status status-${esc(sc.status)}">${esc(sc.status)}</span>`,
    num(String(sc.shifts.length)),
    num(hours(sc.totalHours)),
  ]);
  const label = weekday;
  const dailyChart = chart({
    title: 'Scheduled and worked hours per day, this week to date',
    labels: daily.map((d) => label(d.date)),
    series: [
      { label: 'Scheduled', values: daily.map((d) => d.scheduledHours), color: 'muted' },
      { label: 'Worked', values: daily.map((d) => d.actualHours), colors: daily.map((d) => (d.overtimeHours > 0 ? 'warn' : null)) },
    ],
    format: 'hours',
  });
  const dayRows = daily.map((d) => [
    `<span class="nowrap">${esc(label(d.date))}</span>`,
    num(hours(d.scheduledHours)),
    num(hours(d.actualHours)),
    varianceCell(d.varianceHours),
    overtimeCell(d.overtimeHours),
    num(money(d.laborCost)),
  ]);
  const people = employees.map((e) => [
    esc(e.name) + (e.position ? ` <span class="note">${esc(e.position)}</span>` : ''),
    num(hours(e.scheduledHours)),
    num(hours(e.actualHours)),
    varianceCell(e.varianceHours),
    overtimeCell(e.overtimeHours),
    num(money(e.laborCost)),
  ]);
  const nothing = s.scheduledHours === 0 && s.actualHours === 0;
  return {
    title: 'Scheduling',
    body: `<section><h2>This week to date</h2>
<p class="note">${esc(`${day(week.start)} – ${day(today)}`)}, up to now: shifts count for the part already started, punches up to now.
The whole week has ${esc(hours(data.week.summary.scheduledHours))} h scheduled.</p>
${figures([
  ['Scheduled to date', esc(`${hours(s.scheduledHours)} h`)],
  ['Worked to date', esc(`${hours(s.actualHours)} h`)],
  ['Variance', esc(`${signed(s.varianceHours)} h (${percent(s.variancePercent)})`)],
  ['Overtime', esc(`${hours(s.overtimeHours)} h`)],
  ['Labor cost', esc(money(s.laborCost))],
  ['Labor % of sales', esc(percent(s.laborCostPercent))],
])}
${
  nothing
    ? empty(
        'Nothing scheduled or worked yet this week. Publish this week’s schedule in your scheduling tool and have staff clock in: the comparison fills in as the week goes.',
      )
    : `${dailyChart}
${daily.some((d) => d.overtimeHours > 0) ? '<p class="note legend"><span class="swatch warn"></span> a day with overtime (past 40 h in the week, paid at 1.5×)</p>' : ''}
${table(['Day', 'Scheduled h', 'Worked h', 'Variance', 'Overtime', 'Labor cost'], dayRows, ' class="compact"')}`
}</section>
<section><h2>Employees this week to date</h2>
${
  people.length
    ? table(
        ['Employee', 'Scheduled h', 'Worked h', 'Variance', 'Overtime', 'Labor cost'],
        people,
        '',
        employees.map((e) => (e.overtimeHours > 0 ? 'ot' : null)),
      )
    : empty('No one has a shift or a punch this week yet.')
}</section>
<section><h2>Schedules</h2>
${schedules.length ? table(['Week', ...(ctx.storeId ? [] : ['Store']), 'Status', 'Shifts', 'Hours'], schedules) : empty('No schedules yet. Create and publish one in your scheduling tool; it shows here once it exists.')}</section>`,
    scripts: CHART_SCRIPTS,
  };
};
