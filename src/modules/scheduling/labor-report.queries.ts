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
}

/**
 * Hours and money are exact numerics in SQL, returned rounded to 6 decimals and converted to integer millionths
 * (micro-units) here, so sums do not depend on row order or floating-point error; the report rounds once.
 */
export interface EmployeeWeekHours {
  employeeId: string;
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
 * Punched hours per employee and week inside the range. Overtime is what an employee works past 40 hours in
 * a Sunday–Saturday week, at every store of the tenant, counted in the order worked: a punch that crosses
 * the 40th hour is split. Whole weeks are read so a week cut by the range still knows its earlier hours.
 * Labor cost: regular hours at the hourly rate plus overtime at 1.5 times it.
 */
export async function actualHoursByEmployeeWeek(db: Kysely<DB>, r: ReportRange): Promise<EmployeeWeekHours[]> {
  const { rows } = await sql<Record<keyof EmployeeWeekHours, string>>`
    with punched as (
      select p.id, p.employee_id, p.store_id, p.clock_in,
             (p.clock_in at time zone st.timezone)::date as day,
             extract(epoch from p.clock_out - p.clock_in) / 3600.0 as hours
      from time_punches p
      join stores st on st.id = p.store_id
      where p.tenant_id = ${r.tenantId}
        and p.clock_out is not null
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
    )
    select s.employee_id, s.week_start,
           round(sum(s.hours), 6) as hours,
           round(sum(s.overtime), 6) as overtime_hours,
           round(sum((s.hours - s.overtime) * e.hourly_rate + s.overtime * e.hourly_rate * 1.5), 6) as labor_cost,
           round(sum(s.overtime * e.hourly_rate * 1.5), 6) as overtime_cost,
           count(*) as count
    from split s
    join employees e on e.id = s.employee_id
    group by s.employee_id, s.week_start
    order by s.employee_id, s.week_start
  `.execute(db);
  return rows.map((row) => ({
    employeeId: row.employeeId,
    weekStart: row.weekStart,
    hours: micro(row.hours),
    overtimeHours: micro(row.overtimeHours),
    laborCost: micro(row.laborCost),
    overtimeCost: micro(row.overtimeCost),
    count: Number(row.count),
  }));
}

/** Scheduled hours (shift length less breaks) per employee and week, from published and archived schedules. */
export async function scheduledHoursByEmployeeWeek(
  db: Kysely<DB>,
  r: ReportRange,
): Promise<Omit<EmployeeWeekHours, 'overtimeHours' | 'laborCost' | 'overtimeCost'>[]> {
  const { rows } = await sql<{ employeeId: string; weekStart: string; hours: string; count: string }>`
    with scheduled as (
      select sh.employee_id,
             (sh.starts_at at time zone st.timezone)::date as day,
             extract(epoch from sh.ends_at - sh.starts_at) / 3600.0 - sh.break_minutes / 60.0 as hours
      from shifts sh
      join schedules sc on sc.id = sh.schedule_id
      join stores st on st.id = sc.store_id
      where sc.tenant_id = ${r.tenantId}
        and sc.status in ('published', 'archived')
        and (${r.storeId}::uuid is null or sc.store_id = ${r.storeId}::uuid)
        and sh.starts_at >= ${utcMidnight(r.startDate, -1)}
        and sh.starts_at < ${utcMidnight(r.endDate, 2)}
    )
    select employee_id, day - extract(dow from day)::int as week_start, round(sum(hours), 6) as hours, count(*) as count
    from scheduled
    where day between ${r.startDate}::date and ${r.endDate}::date
    group by 1, 2
    order by 1, 2
  `.execute(db);
  return rows.map((row) => ({ employeeId: row.employeeId, weekStart: row.weekStart, hours: micro(row.hours), count: Number(row.count) }));
}

/** Point-of-sale net sales per week (business days inside the range). */
export async function netSalesByWeek(db: Kysely<DB>, r: ReportRange): Promise<{ weekStart: string; netSales: number; days: number }[]> {
  const { rows } = await sql<{ weekStart: string; netSales: string; days: string }>`
    select business_date - extract(dow from business_date)::int as week_start, sum(net_sales) as net_sales, count(*) as days
    from pos_daily_sales
    where tenant_id = ${r.tenantId}
      and (${r.storeId}::uuid is null or store_id = ${r.storeId}::uuid)
      and business_date between ${r.startDate}::date and ${r.endDate}::date
    group by 1
    order by 1
  `.execute(db);
  return rows.map((row) => ({ weekStart: row.weekStart, netSales: micro(row.netSales), days: Number(row.days) }));
}
