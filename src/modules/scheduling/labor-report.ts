import type { Kysely } from 'kysely';
import { actualHoursByEmployeeDay, netSalesByDay, type ReportRange, scheduledHoursByEmployeeDay } from './labor-report.queries.ts';
import { findEmployees } from './scheduling.queries.ts';
import type { DB } from '../../platform/db/types.ts';
import { InvalidInput } from '../../platform/errors.ts';
import { addDays, dayOfWeek } from '../../platform/lib/timezone.ts';

export interface LaborFigures {
  scheduledHours: number;
  actualHours: number;
  /** actualHours − scheduledHours. */
  varianceHours: number;
  overtimeHours: number;
  /** Regular hours at the hourly rate plus overtime hours at 1.5 times it. */
  laborCost: number;
}

export interface LaborSummary extends LaborFigures {
  startDate: string;
  endDate: string;
  storeId: string | null;
  /** varianceHours as a percentage of scheduledHours (null: nothing scheduled). */
  variancePercent: number | null;
  regularHours: number;
  overtimeCost: number;
  netSales: number;
  /** laborCost as a percentage of netSales (null: no sales). */
  laborCostPercent: number | null;
  /** netSales per actual hour (null: no hours). */
  salesPerLaborHour: number | null;
  /** Employees with a shift or a punch in the range. */
  employeeCount: number;
}

export interface LaborWeek extends LaborFigures {
  /** The Sunday and Saturday of the week. */
  weekStart: string;
  weekEnd: string;
  /** The part of the week inside the report's range. */
  startDate: string;
  endDate: string;
  partial: boolean;
  netSales: number;
  laborCostPercent: number | null;
}

export interface LaborEmployee extends LaborFigures {
  employeeId: string;
  name: string;
  position: string | null;
  storeId: string;
  hourlyRate: number;
  regularHours: number;
  shiftCount: number;
  punchCount: number;
}

/** One local day of the range (every day, also those with nothing in them). */
export interface LaborDay extends LaborFigures {
  date: string;
  netSales: number;
}

export interface LaborReport {
  summary: LaborSummary & { asOf: Date | null };
  weekly: LaborWeek[];
  daily: LaborDay[];
  employees: LaborEmployee[];
}

const MAX_DAYS = 366;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The report's range: endDate defaults to today (UTC), startDate to the first of endDate's month; both are
 * inclusive days; at most 366 days.
 */
export function reportRange(input: { startDate?: string | null; endDate?: string | null }, now: Date): { startDate: string; endDate: string } {
  const endDate = input.endDate ?? now.toISOString().slice(0, 10);
  const startDate = input.startDate ?? `${endDate.slice(0, 8)}01`;
  for (const [field, value] of [
    ['startDate', startDate],
    ['endDate', endDate],
  ] as const) {
    if (!ISO_DATE.test(value)) throw InvalidInput.field(field, `must be a date YYYY-MM-DD (got "${value}")`);
  }
  if (endDate < startDate) throw InvalidInput.field('endDate', `must not be before startDate (${startDate})`);
  const days = (Date.parse(endDate) - Date.parse(startDate)) / 86_400_000 + 1;
  if (days > MAX_DAYS) throw InvalidInput.field('endDate', `is ${days} days from startDate, both included; at most ${MAX_DAYS} days are allowed`);
  return { startDate, endDate };
}

/** The range with the whole Sunday–Saturday weeks around it (overtime needs them). */
export function withWeeks(q: { tenantId: string; storeId: string | null; startDate: string; endDate: string; asOf?: Date | null }): ReportRange {
  return {
    ...q,
    asOf: q.asOf ?? null,
    weeksFrom: addDays(q.startDate, -dayOfWeek(q.startDate)),
    weeksTo: addDays(q.endDate, 6 - dayOfWeek(q.endDate)),
  };
}

/** Four set-based queries (actual hours with overtime, scheduled hours, sales, the employees), joined here. */
export async function buildLaborReport(
  db: Kysely<DB>,
  q: { tenantId: string; storeId: string | null; startDate: string; endDate: string; asOf?: Date | null },
): Promise<LaborReport> {
  const range = withWeeks(q);
  const actual = await actualHoursByEmployeeDay(db, range);
  const scheduled = await scheduledHoursByEmployeeDay(db, range);
  const sales = await netSalesByDay(db, range);
  const employeeIds = [...new Set([...actual, ...scheduled].map((r) => r.employeeId))];
  const people = await findEmployees(db, [q.tenantId], employeeIds);

  const weekly: LaborWeek[] = [];
  for (let weekStart = range.weeksFrom; weekStart <= q.endDate; weekStart = addDays(weekStart, 7)) {
    const inWeek = <T extends { weekStart: string }>(rows: T[]) => rows.filter((r) => r.weekStart === weekStart);
    const weekEnd = addDays(weekStart, 6);
    const figures = laborFigures(inWeek(scheduled), inWeek(actual));
    const netSales = sum(inWeek(sales).map((s) => s.netSales));
    const startDate = weekStart < q.startDate ? q.startDate : weekStart;
    const endDate = weekEnd > q.endDate ? q.endDate : weekEnd;
    weekly.push({
      weekStart,
      weekEnd,
      startDate,
      endDate,
      partial: startDate !== weekStart || endDate !== weekEnd,
      ...rounded(figures),
      netSales: money(netSales),
      laborCostPercent: percent(figures.laborCost, netSales),
    });
  }

  const daily: LaborDay[] = [];
  for (let date = q.startDate; date <= q.endDate; date = addDays(date, 1)) {
    const onDay = <T extends { day: string }>(rows: T[]) => rows.filter((r) => r.day === date);
    daily.push({ date, ...rounded(laborFigures(onDay(scheduled), onDay(actual))), netSales: money(sum(onDay(sales).map((s) => s.netSales))) });
  }

  const employees: LaborEmployee[] = people
    .map((e) => {
      const mine = <T extends { employeeId: string }>(rows: T[]) => rows.filter((r) => r.employeeId === e.id);
      const figures = laborFigures(mine(scheduled), mine(actual));
      return {
        employeeId: e.id,
        name: e.name,
        position: e.position,
        storeId: e.storeId,
        hourlyRate: Number(e.hourlyRate),
        ...rounded(figures),
        regularHours: hours(figures.actualHours - figures.overtimeHours),
        shiftCount: sum(mine(scheduled).map((r) => r.count)),
        punchCount: sum(mine(actual).map((r) => r.count)),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.employeeId.localeCompare(b.employeeId));

  const total = laborFigures(scheduled, actual);
  const netSales = sum(sales.map((s) => s.netSales));
  const overtimeCost = sum(actual.map((r) => r.overtimeCost));
  return {
    summary: {
      startDate: q.startDate,
      endDate: q.endDate,
      storeId: q.storeId,
      asOf: range.asOf,
      ...rounded(total),
      variancePercent: percent(total.actualHours - total.scheduledHours, total.scheduledHours),
      regularHours: hours(total.actualHours - total.overtimeHours),
      overtimeCost: money(overtimeCost),
      netSales: money(netSales),
      laborCostPercent: percent(total.laborCost, netSales),
      salesPerLaborHour: total.actualHours > 0 ? Math.round((netSales / total.actualHours) * 100) / 100 : null,
      employeeCount: employeeIds.length,
    },
    weekly,
    daily,
    employees,
  };
}

function laborFigures(scheduled: readonly { hours: number }[], actual: readonly { hours: number; overtimeHours: number; laborCost: number }[]): LaborFigures {
  const scheduledHours = sum(scheduled.map((r) => r.hours));
  const actualHours = sum(actual.map((r) => r.hours));
  return {
    scheduledHours,
    actualHours,
    varianceHours: actualHours - scheduledHours,
    overtimeHours: sum(actual.map((r) => r.overtimeHours)),
    laborCost: sum(actual.map((r) => r.laborCost)),
  };
}

/** Figures are summed exactly (integer millionths) and rounded once, here: hours and money to 2 decimals. */
function rounded(f: LaborFigures): LaborFigures {
  return {
    scheduledHours: hours(f.scheduledHours),
    actualHours: hours(f.actualHours),
    varianceHours: hours(f.varianceHours),
    overtimeHours: hours(f.overtimeHours),
    laborCost: money(f.laborCost),
  };
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
/** Millionths → 2 decimals, half up (an integer over 10⁴ has an exact .5 at a tie). */
const money = (micro: number) => Math.round(micro / 1e4) / 100 + 0;
const hours = money;
/** A ratio of two micro-unit amounts, as a percentage to 2 decimals. */
const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 100 + 0 : null);
