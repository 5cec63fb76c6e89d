import type { Kysely } from 'kysely';
import {
  deleteShift,
  type EmployeeRow,
  findEmployees,
  findSchedules,
  findShift,
  insertEmployee,
  insertSchedule,
  insertShift,
  listEmployees,
  listSchedules,
  moveSchedule,
  overlappingShift,
  type ScheduleRow,
  shiftsOfSchedules,
  updateEmployee,
  updateShift,
  upsertDailySales,
} from './scheduling.queries.ts';
import type { DB, ScheduleStatus } from '../../platform/db/types.ts';
import { Conflict, InvalidInput, NotFound, translateDbError } from '../../platform/errors.ts';
import { optionalText } from '../../platform/lib/text.ts';
import { buildLaborReport, type LaborReport, reportRange, withWeeks } from './labor-report.ts';
import { actualHoursByEmployeeDay, netSalesByDay } from './labor-report.queries.ts';
import { parsePosSalesCsv } from './pos-sales-csv.ts';
import { createTimeClock } from './time-clock.ts';
import type { TenantsService } from '../tenants/tenants.service.ts';
import { addDays, dayOfWeek, localDate } from '../../platform/lib/timezone.ts';

import {
  employeeFields,
  type Employee,
  type EmployeeInput,
  MAX_NAME,
  SCHEDULE_LIST_LIMIT,
  MAX_SHIFT_HOURS,
  MAX_TEXT,
  type Schedule,
  type Shift,
  type NewShift,
  type ShiftInput,
  toEmployee,
  toSchedule,
} from './scheduling.model.ts';

export function createSchedulingService(db: Kysely<DB>, deps: { tenants: TenantsService; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());

  async function employeeOf(tenantIds: readonly string[], id: string, field = 'employeeId'): Promise<EmployeeRow> {
    const [row] = await findEmployees(db, tenantIds, [id]);
    if (!row) throw new NotFound(field === 'employeeId' ? 'employee' : field);
    return row;
  }

  const timeClock = createTimeClock(db, { tenants: deps.tenants, now, employeeOf });

  async function scheduleOf(tenantIds: readonly string[], id: string): Promise<ScheduleRow> {
    const [row] = await findSchedules(db, tenantIds, [id]);
    if (!row) throw new NotFound('schedule');
    return row;
  }

  /** Checks a shift against its schedule: an active employee of the tenant, inside the week, no double booking. */
  async function checkShift(schedule: ScheduleRow, shift: NewShift, exceptId?: string) {
    if (schedule.status === 'archived') throw new Conflict('schedule is archived; its shifts can no longer change');
    const employee = await employeeOf([schedule.tenantId], shift.employeeId);
    if (!employee.active) throw new Conflict(`employee ${employee.name} is inactive`);
    const hours = (shift.endsAt.getTime() - shift.startsAt.getTime()) / 3_600_000;
    if (!(hours > 0)) throw InvalidInput.field('endsAt', 'must be after startsAt');
    if (hours > MAX_SHIFT_HOURS) throw InvalidInput.field('endsAt', `a shift lasts at most ${MAX_SHIFT_HOURS} hours`);
    const breakMinutes = shift.breakMinutes ?? 0;
    if (!(Number.isInteger(breakMinutes) && breakMinutes >= 0 && breakMinutes < hours * 60)) {
      throw InvalidInput.field('breakMinutes', 'must be a whole number of minutes, at least 0 and shorter than the shift');
    }
    const store = await deps.tenants.requireStore(schedule.tenantId, schedule.storeId);
    const day = localDate(shift.startsAt, store.timezone);
    if (day < schedule.weekStart || day > addDays(schedule.weekStart, 6)) {
      throw InvalidInput.field(
        'startsAt',
        `falls on ${day} (${store.timezone}), outside the schedule's week ${schedule.weekStart} to ${addDays(schedule.weekStart, 6)}`,
      );
    }
    const clash = await overlappingShift(db, employee.id, shift.startsAt, shift.endsAt, exceptId);
    if (clash) {
      throw new Conflict(`${employee.name} already has a shift from ${clash.startsAt.toISOString()} to ${clash.endsAt.toISOString()}`);
    }
    return breakMinutes;
  }

  return {
    // ── employees ──
    async employees(tenantId: string, filter: { storeId?: string | null; includeInactive?: boolean | null }): Promise<Employee[]> {
      if (filter.storeId) await deps.tenants.requireStore(tenantId, filter.storeId);
      return (await listEmployees(db, tenantId, { storeId: filter.storeId, includeInactive: filter.includeInactive ?? false })).map(toEmployee);
    },

    async employeesByIds(tenantIds: readonly string[], ids: readonly string[]): Promise<(Employee | null)[]> {
      const rows = await findEmployees(db, tenantIds, ids);
      return ids.map((id) => {
        const row = rows.find((r) => r.id === id);
        return row ? toEmployee(row) : null;
      });
    },

    async createEmployee(tenantId: string, input: EmployeeInput & { storeId: string; name: string; hourlyRate: number }): Promise<Employee> {
      await deps.tenants.requireStore(tenantId, input.storeId);
      const fields = employeeFields(input, undefined);
      try {
        return toEmployee(await insertEmployee(db, { tenantId, storeId: input.storeId, ...fields }));
      } catch (err) {
        throw translateDbError(err, { employees__tenant_id_email: new Conflict(`an employee with email ${fields.email} already exists`) });
      }
    },

    async updateEmployee(tenantIds: readonly string[], id: string, input: EmployeeInput): Promise<Employee> {
      const current = await employeeOf(tenantIds, id, 'employee');
      if (input.storeId) await deps.tenants.requireStore(current.tenantId, input.storeId);
      const fields = employeeFields(input, current);
      try {
        return toEmployee(await updateEmployee(db, current.tenantId, id, { ...fields, ...(input.storeId ? { storeId: input.storeId } : {}) }));
      } catch (err) {
        throw translateDbError(err, { employees__tenant_id_email: new Conflict(`an employee with email ${fields.email} already exists`) });
      }
    },

    // ── schedules and shifts ──
    async schedules(tenantId: string, filter: { storeId?: string | null; status?: ScheduleStatus | null }): Promise<Schedule[]> {
      if (filter.storeId) await deps.tenants.requireStore(tenantId, filter.storeId);
      return (await listSchedules(db, tenantId, filter, SCHEDULE_LIST_LIMIT)).map(toSchedule);
    },

    schedule: async (tenantIds: readonly string[], id: string): Promise<Schedule> => toSchedule(await scheduleOf(tenantIds, id)),

    /** Shifts grouped per schedule, in the order of `scheduleIds` (a DataLoader batch function). */
    async shiftsOf(scheduleIds: readonly string[]): Promise<Shift[][]> {
      const rows = await shiftsOfSchedules(db, scheduleIds);
      return scheduleIds.map((id) => rows.filter((r) => r.scheduleId === id));
    },

    /** A draft schedule for a store's week; weekStart must be a Sunday; one schedule per store and week. */
    async createSchedule(tenantId: string, input: { storeId: string; weekStart: string }): Promise<Schedule> {
      await deps.tenants.requireStore(tenantId, input.storeId);
      if (dayOfWeek(input.weekStart) !== 0) {
        throw InvalidInput.field('weekStart', `must be a Sunday (weeks run Sunday to Saturday); ${input.weekStart} is not`);
      }
      try {
        return toSchedule(await insertSchedule(db, { tenantId, storeId: input.storeId, weekStart: input.weekStart }));
      } catch (err) {
        throw translateDbError(err, {
          schedules__store_id_week_start: new Conflict(`the store already has a schedule for the week of ${input.weekStart}`),
        });
      }
    },

    /** draft → published; published or draft → archived. Anything else is 409 naming the current state. */
    async moveSchedule(tenantIds: readonly string[], id: string, to: 'published' | 'archived'): Promise<Schedule> {
      const from: ScheduleStatus[] = to === 'published' ? ['draft'] : ['draft', 'published'];
      const current = await scheduleOf(tenantIds, id);
      const moved = await moveSchedule(db, current.tenantId, current.id, from, to);
      if (!moved) throw new Conflict(`schedule is ${current.status === to ? 'already ' : ''}${current.status}; it cannot become ${to}`);
      return toSchedule(moved);
    },

    async addShift(tenantIds: readonly string[], scheduleId: string, input: NewShift): Promise<Shift> {
      const schedule = await scheduleOf(tenantIds, scheduleId);
      const breakMinutes = await checkShift(schedule, input);
      return insertShift(db, {
        scheduleId,
        employeeId: input.employeeId,
        startsAt: input.startsAt,
        endsAt: input.endsAt,
        breakMinutes,
        position: optionalText(input.position, 'position', MAX_NAME),
        notes: optionalText(input.notes, 'notes', MAX_TEXT),
      });
    },

    async updateShift(tenantIds: readonly string[], id: string, input: ShiftInput): Promise<Shift> {
      const current = await findShift(db, tenantIds, id);
      if (!current) throw new NotFound('shift');
      const merged = {
        employeeId: input.employeeId ?? current.employeeId,
        startsAt: input.startsAt ?? current.startsAt,
        endsAt: input.endsAt ?? current.endsAt,
        breakMinutes: input.breakMinutes ?? current.breakMinutes,
      };
      const schedule = await scheduleOf(tenantIds, current.scheduleId);
      const breakMinutes = await checkShift(schedule, merged, id);
      return updateShift(db, schedule.tenantId, id, {
        ...merged,
        breakMinutes,
        ...(input.position !== undefined ? { position: optionalText(input.position, 'position', MAX_NAME) } : {}),
        ...(input.notes !== undefined ? { notes: optionalText(input.notes, 'notes', MAX_TEXT) } : {}),
      });
    },

    async deleteShift(tenantIds: readonly string[], id: string): Promise<boolean> {
      const current = await findShift(db, tenantIds, id);
      if (!current) throw new NotFound('shift');
      const schedule = await scheduleOf(tenantIds, current.scheduleId);
      if (schedule.status === 'archived') throw new Conflict('schedule is archived; its shifts can no longer change');
      await deleteShift(db, schedule.tenantId, id);
      return true;
    },

    ...timeClock,

    /** Imports a point-of-sale CSV (one row per business day) for a store; a day imported again is replaced. */
    async importPosSales(tenantId: string, storeId: string, csv: string) {
      await deps.tenants.requireStore(tenantId, storeId);
      const days = parsePosSalesCsv(csv);
      await upsertDailySales(db, tenantId, storeId, days);
      return {
        storeId,
        days: days.length,
        firstDate: days[0]!.businessDate,
        lastDate: days.at(-1)!.businessDate,
        totalNetSales: Math.round(days.reduce((a, d) => a + d.netSales, 0) * 100) / 100,
      };
    },

    /** Scheduled vs punched hours, labor cost and sales; range defaults to this month through today (UTC). */
    async laborReport(
      tenantId: string,
      input: { storeId?: string | null; startDate?: string | null; endDate?: string | null; asOf?: Date | null },
    ): Promise<LaborReport> {
      if (input.storeId) await deps.tenants.requireStore(tenantId, input.storeId);
      const range = reportRange(input, now());
      // Nothing is worked after now: an open punch counts up to now at most.
      const asOf = input.asOf ? new Date(Math.min(input.asOf.getTime(), now().getTime())) : null;
      return buildLaborReport(db, { tenantId, storeId: input.storeId ?? null, ...range, asOf });
    },

    /**
     * Labor (punched hours with overtime, cost paid per punch in whole cents) and point-of-sale net sales per store and
     * local day: the P&L's inputs, in micro-units (the caller checks the range and the store).
     */
    async laborAndSalesByStoreDay(tenantId: string, range: { storeId: string | null; startDate: string; endDate: string }) {
      const r = withWeeks({ tenantId, ...range });
      return { labor: await actualHoursByEmployeeDay(db, r), sales: await netSalesByDay(db, r) };
    },
  };
}
export type SchedulingService = ReturnType<typeof createSchedulingService>;
