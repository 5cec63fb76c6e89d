import { esc } from '../html.ts';
import { day, hours, money, percent, storeName, weekOf } from './format.ts';
import { empty, figures, table } from './layout.ts';
import type { PageHandler } from './page.ts';

const QUERY = `query SchedulingPage($storeId: UUID, $start: Date!, $end: Date!) {
  stores { id name externalStoreId }
  schedules(storeId: $storeId) { id storeId weekStart weekEnd status totalHours publishedAt shifts { id } }
  laborReport(storeId: $storeId, startDate: $start, endDate: $end) {
    summary { scheduledHours actualHours varianceHours variancePercent overtimeHours laborCost netSales laborCostPercent salesPerLaborHour employeeCount }
    employees { employeeId name position scheduledHours actualHours overtimeHours laborCost }
  }
}`;

interface Data {
  stores: Array<{ id: string; name: string | null; externalStoreId: string }>;
  schedules: Array<{ id: string; storeId: string; weekStart: string; weekEnd: string; status: string; totalHours: number; shifts: unknown[] }>;
  laborReport: {
    summary: Record<'scheduledHours' | 'actualHours' | 'varianceHours' | 'overtimeHours' | 'laborCost' | 'netSales', number> & {
      variancePercent: number | null;
      laborCostPercent: number | null;
      salesPerLaborHour: number | null;
      employeeCount: number;
    };
    employees: Array<{
      employeeId: string;
      name: string;
      position: string | null;
      scheduledHours: number;
      actualHours: number;
      overtimeHours: number;
      laborCost: number;
    }>;
  };
}

const SHOWN_SCHEDULES = 20;

/** The store's schedules and this week's (Sunday–Saturday, UTC) labor figures (GraphQL laborReport). */
export const schedulingPage: PageHandler = async (ctx) => {
  const week = weekOf(ctx.now);
  const data = await ctx.gql<Data>(QUERY, { storeId: ctx.storeId, start: week.start, end: week.end });
  const names = new Map(data.stores.map((s) => [s.id, storeName(s)]));
  const s = data.laborReport.summary;
  const schedules = data.schedules
    .slice(0, SHOWN_SCHEDULES)
    .map((sc) => [
      esc(`${day(sc.weekStart)} – ${day(sc.weekEnd)}`),
      esc(names.get(sc.storeId) ?? '—'),
      `<span class="status status-${esc(sc.status)}">${esc(sc.status)}</span>`,
      `<span class="num">${esc(String(sc.shifts.length))}</span>`,
      `<span class="num">${esc(hours(sc.totalHours))}</span>`,
    ]);
  const employees = data.laborReport.employees.map((e) => [
    esc(e.name) + (e.position ? ` <span class="note">${esc(e.position)}</span>` : ''),
    `<span class="num">${esc(hours(e.scheduledHours))}</span>`,
    `<span class="num">${esc(hours(e.actualHours))}</span>`,
    `<span class="num">${esc(hours(e.overtimeHours))}</span>`,
    `<span class="num">${esc(money(e.laborCost))}</span>`,
  ]);
  return {
    title: 'Scheduling',
    body: `<section><h2>This week</h2><p class="note">${esc(`${day(week.start)} – ${day(week.end)}`)}</p>
${figures([
  ['Scheduled hours', esc(hours(s.scheduledHours))],
  ['Actual hours', esc(hours(s.actualHours))],
  ['Variance', esc(`${hours(s.varianceHours)} h (${percent(s.variancePercent)})`)],
  ['Overtime hours', esc(hours(s.overtimeHours))],
  ['Labor cost', esc(money(s.laborCost))],
  ['Net sales', esc(money(s.netSales))],
  ['Labor cost %', esc(percent(s.laborCostPercent))],
  ['Sales per labor hour', esc(s.salesPerLaborHour === null ? '—' : money(s.salesPerLaborHour))],
])}
${employees.length ? table(['Employee', 'Scheduled h', 'Actual h', 'Overtime h', 'Labor cost'], employees) : empty('No shifts or punches this week.')}</section>
<section><h2>Schedules</h2>
${schedules.length ? table(['Week', 'Store', 'Status', 'Shifts', 'Hours'], schedules) : empty('No schedules yet.')}</section>`,
  };
};
