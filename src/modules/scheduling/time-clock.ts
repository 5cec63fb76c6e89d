import type { Kysely } from 'kysely';
import type { DB, TimeOffStatus } from '../../platform/db/types.ts';
import { Conflict, InvalidInput, NotFound, translateDbError } from '../../platform/errors.ts';
import { optionalText } from '../../platform/lib/text.ts';
import type { TenantsService } from '../tenants/tenants.service.ts';
import { FUTURE_SKEW_MS, MAX_NAME, MAX_SHIFT_HOURS, MAX_TEXT, TIME_OFF_LIST_LIMIT, type TimeOffRequest, type TimePunch } from './scheduling.model.ts';
import {
  closeOpenPunch,
  decideTimeOff,
  type EmployeeRow,
  findOpenPunch,
  findTimeOff,
  insertPunch,
  insertTimeOff,
  listTimeOff,
  overlappingPunch,
} from './scheduling.queries.ts';

/** Time off and time punches of a tenant's employees (part of the scheduling service). */
export function createTimeClock(
  db: Kysely<DB>,
  deps: { tenants: TenantsService; now: () => Date; employeeOf: (tenantIds: readonly string[], id: string) => Promise<EmployeeRow> },
) {
  const { now, employeeOf } = deps;
  return {
    // ── time off ──
    async timeOffRequests(tenantId: string, filter: { status?: TimeOffStatus | null; employeeId?: string | null }): Promise<TimeOffRequest[]> {
      if (filter.employeeId) await employeeOf([tenantId], filter.employeeId);
      return listTimeOff(db, tenantId, filter, TIME_OFF_LIST_LIMIT);
    },

    /** A request in the pending state; endDate before startDate is 400. */
    async requestTimeOff(tenantId: string, input: { employeeId: string; startDate: string; endDate: string; reason?: string | null }): Promise<TimeOffRequest> {
      if (input.endDate < input.startDate) throw InvalidInput.field('endDate', `must not be before startDate (${input.startDate})`);
      const employee = await employeeOf([tenantId], input.employeeId);
      if (!employee.active) throw new Conflict(`employee ${employee.name} is inactive`);
      return insertTimeOff(db, {
        tenantId,
        employeeId: employee.id,
        startDate: input.startDate,
        endDate: input.endDate,
        reason: optionalText(input.reason, 'reason', MAX_TEXT),
      });
    },

    /** pending → approved | denied; a decided request is 409. */
    async decideTimeOff(tenantIds: readonly string[], id: string, status: 'approved' | 'denied', decidedBy?: string | null): Promise<TimeOffRequest> {
      const current = await findTimeOff(db, tenantIds, id);
      if (!current) throw new NotFound('time-off request');
      const decided = await decideTimeOff(db, current.tenantId, id, status, optionalText(decidedBy, 'decidedBy', MAX_NAME));
      if (!decided) throw new Conflict(`time-off request is already ${current.status}`);
      return decided;
    },

    // ── punches and sales ──
    /**
     * A punch at a store (default: the employee's). clockOut omitted: the employee is clocked in now. Punches
     * of one employee never overlap, last at most 24 hours and are not in the future.
     */
    async recordPunch(
      tenantIds: readonly string[],
      input: { employeeId: string; storeId?: string | null; clockIn: Date; clockOut?: Date | null },
    ): Promise<TimePunch> {
      const employee = await employeeOf(tenantIds, input.employeeId);
      if (!employee.active) throw new Conflict(`employee ${employee.name} is inactive`);
      const storeId = input.storeId ?? employee.storeId;
      await deps.tenants.requireStore(employee.tenantId, storeId);
      const latest = now().getTime() + FUTURE_SKEW_MS;
      if (input.clockIn.getTime() > latest) throw InvalidInput.field('clockIn', 'must not be in the future');
      if (input.clockOut) {
        if (input.clockOut.getTime() > latest) throw InvalidInput.field('clockOut', 'must not be in the future');
        const hours = (input.clockOut.getTime() - input.clockIn.getTime()) / 3_600_000;
        if (!(hours > 0)) throw InvalidInput.field('clockOut', 'must be after clockIn');
        if (hours > MAX_SHIFT_HOURS) throw InvalidInput.field('clockOut', `a punch lasts at most ${MAX_SHIFT_HOURS} hours`);
      } else if (await findOpenPunch(db, employee.id)) {
        throw new Conflict(`${employee.name} is already clocked in`);
      }
      const clash = await overlappingPunch(db, employee.id, input.clockIn, input.clockOut ?? null);
      if (clash)
        throw new Conflict(
          `${employee.name} already has a punch from ${clash.clockIn.toISOString()}${clash.clockOut ? ` to ${clash.clockOut.toISOString()}` : ' (still clocked in)'}`,
        );
      try {
        return await insertPunch(db, {
          tenantId: employee.tenantId,
          storeId,
          employeeId: employee.id,
          clockIn: input.clockIn,
          clockOut: input.clockOut ?? null,
        });
      } catch (err) {
        throw translateDbError(err, { time_punches__one_open: new Conflict(`${employee.name} is already clocked in`) });
      }
    },

    /** Closes the employee's open punch (at `at`, default now). */
    async clockOut(tenantIds: readonly string[], employeeId: string, at?: Date | null): Promise<TimePunch> {
      const employee = await employeeOf(tenantIds, employeeId);
      const when = at ?? now();
      const open = await findOpenPunch(db, employee.id);
      if (!open) throw new Conflict(`${employee.name} is not clocked in`);
      if (when <= open.clockIn) throw InvalidInput.field('at', `must be after the clock-in at ${open.clockIn.toISOString()}`);
      if (when.getTime() - open.clockIn.getTime() > MAX_SHIFT_HOURS * 3_600_000) {
        throw InvalidInput.field('at', `a punch lasts at most ${MAX_SHIFT_HOURS} hours; record the punch with an explicit clockOut`);
      }
      const closed = await closeOpenPunch(db, tenantIds, employee.id, when);
      if (!closed) throw new Conflict(`${employee.name} is not clocked in`);
      return closed;
    },
  };
}
