import { type ExpressionBuilder, type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type {
  DB,
  EmployeesTable,
  ScheduleStatus,
  SchedulesTable,
  ShiftsTable,
  TimeOffRequestsTable,
  TimeOffStatus,
  TimePunchesTable,
} from '../../platform/db/types.ts';

export type EmployeeRow = Selectable<EmployeesTable>;
export type ScheduleRow = Selectable<SchedulesTable>;
export type ShiftRow = Selectable<ShiftsTable>;
export type TimeOffRow = Selectable<TimeOffRequestsTable>;
export type TimePunchRow = Selectable<TimePunchesTable>;

// ── employees ──

export async function listEmployees(db: Kysely<DB>, tenantId: string, filter: { storeId?: string | null; includeInactive: boolean }): Promise<EmployeeRow[]> {
  let q = db.selectFrom('employees').selectAll().where('tenantId', '=', tenantId);
  if (filter.storeId) q = q.where('storeId', '=', filter.storeId);
  if (!filter.includeInactive) q = q.where('active', '=', true);
  return q.orderBy('name').orderBy('id').execute();
}

export async function findEmployees(db: Kysely<DB>, tenantIds: readonly string[], ids: readonly string[]): Promise<EmployeeRow[]> {
  if (tenantIds.length === 0 || ids.length === 0) return [];
  return db.selectFrom('employees').selectAll().where('tenantId', 'in', tenantIds).where('id', 'in', ids).execute();
}

export async function insertEmployee(db: Kysely<DB>, row: Insertable<EmployeesTable>): Promise<EmployeeRow> {
  return db.insertInto('employees').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateEmployee(db: Kysely<DB>, tenantId: string, id: string, patch: Updateable<EmployeesTable>): Promise<EmployeeRow> {
  return db.updateTable('employees').set(patch).where('tenantId', '=', tenantId).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

// ── schedules and shifts ──

export async function listSchedules(
  db: Kysely<DB>,
  tenantId: string,
  filter: { storeId?: string | null; status?: ScheduleStatus | null },
  limit: number,
): Promise<ScheduleRow[]> {
  let q = db.selectFrom('schedules').selectAll().where('tenantId', '=', tenantId);
  if (filter.storeId) q = q.where('storeId', '=', filter.storeId);
  if (filter.status) q = q.where('status', '=', filter.status);
  return q.orderBy('weekStart', 'desc').orderBy('createdAt', 'desc').orderBy('id').limit(limit).execute();
}

export async function findSchedules(db: Kysely<DB>, tenantIds: readonly string[], ids: readonly string[]): Promise<ScheduleRow[]> {
  if (tenantIds.length === 0 || ids.length === 0) return [];
  return db.selectFrom('schedules').selectAll().where('tenantId', 'in', tenantIds).where('id', 'in', ids).execute();
}

export async function insertSchedule(db: Kysely<DB>, row: Insertable<SchedulesTable>): Promise<ScheduleRow> {
  return db.insertInto('schedules').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Moves a schedule to `to` if it is in one of `from`; undefined when it was not. */
export async function moveSchedule(
  db: Kysely<DB>,
  tenantId: string,
  id: string,
  from: readonly ScheduleStatus[],
  to: ScheduleStatus,
): Promise<ScheduleRow | undefined> {
  return db
    .updateTable('schedules')
    .set({ status: to, ...(to === 'published' ? { publishedAt: sql`now()` } : {}) })
    .where('tenantId', '=', tenantId)
    .where('id', '=', id)
    .where('status', 'in', from)
    .returningAll()
    .executeTakeFirst();
}

export async function shiftsOfSchedules(db: Kysely<DB>, scheduleIds: readonly string[]): Promise<ShiftRow[]> {
  if (scheduleIds.length === 0) return [];
  return db.selectFrom('shifts').selectAll().where('scheduleId', 'in', scheduleIds).orderBy('startsAt').orderBy('id').execute();
}

export async function findShift(db: Kysely<DB>, tenantIds: readonly string[], id: string): Promise<ShiftRow | undefined> {
  if (tenantIds.length === 0) return undefined;
  return db
    .selectFrom('shifts')
    .innerJoin('schedules', 'schedules.id', 'shifts.scheduleId')
    .selectAll('shifts')
    .where('schedules.tenantId', 'in', tenantIds)
    .where('shifts.id', '=', id)
    .executeTakeFirst();
}

export async function insertShift(db: Kysely<DB>, row: Insertable<ShiftsTable>): Promise<ShiftRow> {
  return db.insertInto('shifts').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Shifts carry no tenant column: they are the tenant's through their schedule. */
const schedulesOf = (tenantId: string) => (eb: ExpressionBuilder<DB, 'shifts'>) =>
  eb.selectFrom('schedules').select('schedules.id').where('schedules.tenantId', '=', tenantId);

export async function updateShift(db: Kysely<DB>, tenantId: string, id: string, patch: Updateable<ShiftsTable>): Promise<ShiftRow> {
  return db.updateTable('shifts').set(patch).where('scheduleId', 'in', schedulesOf(tenantId)).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteShift(db: Kysely<DB>, tenantId: string, id: string): Promise<void> {
  await db.deleteFrom('shifts').where('scheduleId', 'in', schedulesOf(tenantId)).where('id', '=', id).execute();
}

/** Another shift of the employee overlapping [start, end), if any. */
export async function overlappingShift(db: Kysely<DB>, employeeId: string, start: Date, end: Date, exceptId?: string): Promise<ShiftRow | undefined> {
  let q = db.selectFrom('shifts').selectAll().where('employeeId', '=', employeeId).where('startsAt', '<', end).where('endsAt', '>', start);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return q.limit(1).executeTakeFirst();
}

// ── time off ──

export async function listTimeOff(
  db: Kysely<DB>,
  tenantId: string,
  filter: { status?: TimeOffStatus | null; employeeId?: string | null },
  limit: number,
): Promise<TimeOffRow[]> {
  let q = db.selectFrom('timeOffRequests').selectAll().where('tenantId', '=', tenantId);
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.employeeId) q = q.where('employeeId', '=', filter.employeeId);
  return q.orderBy('createdAt', 'desc').orderBy('id').limit(limit).execute();
}

export async function insertTimeOff(db: Kysely<DB>, row: Insertable<TimeOffRequestsTable>): Promise<TimeOffRow> {
  return db.insertInto('timeOffRequests').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findTimeOff(db: Kysely<DB>, tenantIds: readonly string[], id: string): Promise<TimeOffRow | undefined> {
  if (tenantIds.length === 0) return undefined;
  return db.selectFrom('timeOffRequests').selectAll().where('tenantId', 'in', tenantIds).where('id', '=', id).executeTakeFirst();
}

/** Decides a pending request; undefined when it was no longer pending. */
export async function decideTimeOff(
  db: Kysely<DB>,
  tenantId: string,
  id: string,
  status: Exclude<TimeOffStatus, 'pending'>,
  decidedBy: string | null,
): Promise<TimeOffRow | undefined> {
  return db
    .updateTable('timeOffRequests')
    .set({ status, decidedBy, decidedAt: sql`now()` })
    .where('tenantId', '=', tenantId)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}

// ── punches and sales ──

export async function insertPunch(db: Kysely<DB>, row: Insertable<TimePunchesTable>): Promise<TimePunchRow> {
  return db.insertInto('timePunches').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Another punch of the employee overlapping [start, end) (an open punch runs to now), if any. */
export async function overlappingPunch(db: Kysely<DB>, employeeId: string, start: Date, end: Date | null): Promise<TimePunchRow | undefined> {
  return db
    .selectFrom('timePunches')
    .selectAll()
    .where('employeeId', '=', employeeId)
    .where('clockIn', '<', end ?? new Date(8.64e15))
    .where((eb) => eb.or([eb('clockOut', 'is', null), eb('clockOut', '>', start)]))
    .limit(1)
    .executeTakeFirst();
}

/** Closes the employee's open punch at `at`; undefined when there is none. */
export async function closeOpenPunch(db: Kysely<DB>, tenantIds: readonly string[], employeeId: string, at: Date): Promise<TimePunchRow | undefined> {
  return db
    .updateTable('timePunches')
    .set({ clockOut: at })
    .where('tenantId', 'in', tenantIds)
    .where('employeeId', '=', employeeId)
    .where('clockOut', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export async function findOpenPunch(db: Kysely<DB>, employeeId: string): Promise<TimePunchRow | undefined> {
  return db.selectFrom('timePunches').selectAll().where('employeeId', '=', employeeId).where('clockOut', 'is', null).executeTakeFirst();
}

/** Inserts or replaces net sales per business day of one store. */
export async function upsertDailySales(
  db: Kysely<DB>,
  tenantId: string,
  storeId: string,
  days: readonly { businessDate: string; netSales: number }[],
): Promise<void> {
  if (days.length === 0) return;
  await db
    .insertInto('posDailySales')
    .values(days.map((d) => ({ tenantId, storeId, businessDate: d.businessDate, netSales: d.netSales })))
    .onConflict((oc) => oc.columns(['storeId', 'businessDate']).doUpdateSet((eb) => ({ netSales: eb.ref('excluded.netSales'), importedAt: sql`now()` })))
    .execute();
}
