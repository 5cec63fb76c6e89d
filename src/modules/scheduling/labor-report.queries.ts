import { type Kysely, sql } from 'kysely';
import type { DB } from '../../platform/db/types.ts';

// The labor report's three aggregates. Days are local days of each row's store (its time zone); a shift or
// punch belongs to the day it starts on; weeks start on Sunday. Instants are pre-filtered with a day of margin
// on either side (no zone is more than 14 h from UTC) so the time indexes apply, then filtered by local day.

export interface ReportRange {
  tenantId: string;
  storeId: string | null;
  startDate: string;
  endDate: string;
  /** The Sunday on or before startDate and the Saturday on or after endDate: overtime needs whole weeks. */
  weeksFrom: string;
  weeksTo: string;
  /**
   * Compare up to this instant ("to date"): only the part of each shift before it is scheduled, punches still open
   * count up to it, and nothing after it counts. Null: whole shifts and closed punches.
   */
  asOf: Date | null;
}

/**
 * Hours are exact numerics in SQL, returned rounded to 6 decimals and converted to integer millionths (micro-units)
 * here, so sums do not depend on row order or floating-point error; the report rounds hours once. Money is paid per
 * punch and rounded to the cent there, as a payroll line is: every total of it is an exact sum of cents.
 */
export interface EmployeeDayHours {
  employeeId: string;
  storeId: string;
  /** The local day (store time zone) the punches or shifts started on. */
  day: string;
  weekStart: string;
  hours: number;
  overtimeHours: number;
  laborCost: number;
  overtimeCost: number;
  count: number;
}

/** '12.345678' → 12345678 (millionths). */
export const micro = (value: string | number): number => Math.round(Number(value) * 1e6);

const utcMidnight = (date: string, days: number) => sql`(${date}::date + ${days}::int)::timestamp at time zone 'UTC'`;

/**
 * Punched hours per employee, store and local day inside the range. Overtime is what an employee works past 40 hours
 * in a Sunday–Saturday week, at every store of the tenant, counted in the order worked: a punch that crosses the 40th
 * hour is split. Whole weeks are read so a week cut by the range still knows its earlier hours. Labor cost: regular
 * hours at the hourly rate plus overtime at 1.5 times it, rounded to the cent per punch.
 */
export async function actualHoursByEmployeeDay(db: Kysely<DB>, r: ReportRange): Promise<EmployeeDayHours[]> {
  const asOf = r.asOf?.toISOString() ?? null;
  const { rows } = await sql<Record<keyof EmployeeDayHours, string>>`
    with punched as (
      select p.id, p.employee_id, p.store_id, p.clock_in,
             (p.clock_in at time zone st.timezone)::date as day,
             extract(epoch from least(coalesce(p.clock_out, ${asOf}::timestamptz), coalesce(${asOf}::timestamptz, p.clock_out)) - p.clock_in) / 3600.0 as hours
      from time_punches p
      join stores st on st.id = p.store_id
      where p.tenant_id = ${r.tenantId}
        and (p.clock_out is not null or ${asOf}::timestamptz is not null)
        and (${asOf}::timestamptz is null or p.clock_in < ${asOf}::timestamptz)
        and p.clock_in >= ${utcMidnight(r.weeksFrom, -1)}
        and p.clock_in < ${utcMidnight(r.weeksTo, 2)}
    ),
    weekly as (
      select *, day - extract(dow from day)::int as week_start,
             sum(hours) over (partition by employee_id, day - extract(dow from day)::int
                              order by clock_in, id rows between unbounded preceding and current row) as cumulative
      from punched
      where day between ${r.weeksFrom}::date and ${r.weeksTo}::date
    ),
    split as (
      select *, greatest(0, cumulative - 40) - greatest(0, cumulative - hours - 40) as overtime
      from weekly
      where day between ${r.startDate}::date and ${r.endDate}::date
        and (${r.storeId}::uuid is null or store_id = ${r.storeId}::uuid)
    ),
    paid as (
      select s.*, round((s.hours - s.overtime) * e.hourly_rate + s.overtime * e.hourly_rate * 1.5, 2) as labor_cost,
             round(s.overtime * e.hourly_rate * 1.5, 2) as overtime_cost
      from split s
      join employees e on e.id = s.employee_id
    )
    select employee_id, store_id, day, week_start,
           round(sum(hours), 6) as hours,
           round(sum(overtime), 6) as overtime_hours,
           sum(labor_cost) as labor_cost,
           sum(overtime_cost) as overtime_cost,
           count(*) as count
    from paid
    group by employee_id, store_id, day, week_start
    order by employee_id, day, store_id
  `.execute(db);
  return rows.map((row) => ({
    employeeId: row.employeeId,
    storeId: row.storeId,
    day: row.day,
    weekStart: row.weekStart,
    hours: micro(row.hours),
    overtimeHours: micro(row.overtimeHours),
    laborCost: micro(row.laborCost),
    overtimeCost: micro(row.overtimeCost),
    count: Number(row.count),
  }));
}

/**
 * Scheduled hours (shift length less breaks) per employee and local day, from published and archived schedules.
 * With asOf, a shift counts only for its part before asOf (its break pro rata).
 */
export async function scheduledHoursByEmployeeDay(
  db: Kysely<DB>,
  r: ReportRange,
): Promise<Array<Pick<EmployeeDayHours, 'employeeId' | 'day' | 'weekStart' | 'hours' | 'count'>>> {
  const asOf = r.asOf?.toISOString() ?? null;
  const { rows } = await sql<{ employeeId: string; day: string; weekStart: string; hours: string; count: string }>`
    with scheduled as (
      select sh.employee_id,
             (sh.starts_at at time zone st.timezone)::date as day,
             (extract(epoch from sh.ends_at - sh.starts_at) / 3600.0 - sh.break_minutes / 60.0)
               * extract(epoch from least(sh.ends_at, coalesce(${asOf}::timestamptz, sh.ends_at)) - sh.starts_at)
               / extract(epoch from sh.ends_at - sh.starts_at) as hours
      from shifts sh
      join schedules sc on sc.id = sh.schedule_id
      join stores st on st.id = sc.store_id
      where sc.tenant_id = ${r.tenantId}
        and sc.status in ('published', 'archived')
        and (${r.storeId}::uuid is null or sc.store_id = ${r.storeId}::uuid)
        and (${asOf}::timestamptz is null or sh.starts_at < ${asOf}::timestamptz)
        and sh.starts_at >= ${utcMidnight(r.startDate, -1)}
        and sh.starts_at < ${utcMidnight(r.endDate, 2)}
    )
    select employee_id, day, day - extract(dow from day)::int as week_start, round(sum(hours), 6) as hours, count(*) as count
    from scheduled
    where day between ${r.startDate}::date and ${r.endDate}::date
    group by 1, 2
    order by 1, 2
  `.execute(db);
  return rows.map((row) => ({ employeeId: row.employeeId, day: row.day, weekStart: row.weekStart, hours: micro(row.hours), count: Number(row.count) }));
}

/** Point-of-sale net sales per store and business day inside the range. */
export async function netSalesByDay(db: Kysely<DB>, r: ReportRange): Promise<{ storeId: string; day: string; weekStart: string; netSales: number }[]> {
  const { rows } = await sql<{ storeId: string; day: string; weekStart: string; netSales: string }>`
    select store_id, business_date as day, business_date - extract(dow from business_date)::int as week_start, sum(net_sales) as net_sales
    from pos_daily_sales
    where tenant_id = ${r.tenantId}
      and (${r.storeId}::uuid is null or store_id = ${r.storeId}::uuid)
      and business_date between ${r.startDate}::date and ${r.endDate}::date
    group by 1, 2
    order by 2, 1
  `.execute(db);
  return rows.map((row) => ({ storeId: row.storeId, day: row.day, weekStart: row.weekStart, netSales: micro(row.netSales) }));
}
