import { type AccessRule, requireAccess, scopedStore, visibleStore } from '../../platform/auth/access.ts';
import type { RequestContext } from '../../app/context.ts';
import { InvalidInput, NotFound } from '../../platform/errors.ts';
import type { UploadedFile } from '../../platform/lib/uploaded-file.ts';
import type { EmployeeInput, NewShift, Schedule, ScheduleStatus, Shift, ShiftInput, TimeOffStatus, TimePunch } from './scheduling.model.ts';
import { loaders } from '../../app/loaders.ts';
import { tenantFor, tenantsFor } from '../tenants/tenant-access.ts';
import type { Resolvers } from '../../app/generated/resolvers.ts';

const READ: AccessRule = { scope: 'scheduling:read' };
const WRITE: AccessRule = { scope: 'scheduling:write' };

type TenantArgs = { tenantId?: string | null };

async function employeeOf(parent: { employeeId: string }, _: unknown, ctx: RequestContext) {
  const employee = await loaders(ctx).employee.load(parent.employeeId);
  if (!employee) throw new NotFound('employee');
  return employee;
}

const shiftHours = (s: Shift) => (s.endsAt.getTime() - s.startsAt.getTime()) / 3_600_000 - s.breakMinutes / 60;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** A CSV upload as text (UTF-8, at most the upload limit). */
function csvText(file: UploadedFile): string {
  if (file.bytes.length === 0) throw InvalidInput.field('file', 'is empty');
  if (file.bytes.includes(0)) throw InvalidInput.field('file', 'must be a CSV text file');
  return file.bytes.toString('utf8');
}

export const schedulingResolvers = {
  Query: {
    employees: async (_: unknown, args: TenantArgs & { storeId?: string | null; includeInactive?: boolean | null }, ctx: RequestContext) =>
      ctx.services.scheduling.employees(await tenantFor(ctx, args, READ), { ...args, storeId: scopedStore(ctx.principal, args.storeId) }),
    schedules: async (_: unknown, args: TenantArgs & { storeId?: string | null; status?: ScheduleStatus | null }, ctx: RequestContext) =>
      ctx.services.scheduling.schedules(await tenantFor(ctx, args, READ), { ...args, storeId: scopedStore(ctx.principal, args.storeId) }),
    schedule: async (_: unknown, args: TenantArgs & { id: string }, ctx: RequestContext) => {
      const schedule = await ctx.services.scheduling.schedule(await tenantsFor(ctx, READ, args.tenantId), args.id);
      if (!visibleStore(ctx.principal, schedule.storeId)) throw new NotFound('schedule');
      return schedule;
    },
    timeOffRequests: async (_: unknown, args: TenantArgs & { status?: TimeOffStatus | null; employeeId?: string | null }, ctx: RequestContext) =>
      ctx.services.scheduling.timeOffRequests(await tenantFor(ctx, args, READ), args),
    laborReport: async (
      _: unknown,
      args: TenantArgs & { storeId?: string | null; startDate?: string | null; endDate?: string | null; asOf?: Date | null },
      ctx: RequestContext,
    ) => ctx.services.scheduling.laborReport(await tenantFor(ctx, args, READ), { ...args, storeId: scopedStore(ctx.principal, args.storeId) }),
  },
  Mutation: {
    createEmployee: async (
      _: unknown,
      args: TenantArgs & { input: EmployeeInput & { storeId: string; name: string; hourlyRate: number } },
      ctx: RequestContext,
    ) => ctx.services.scheduling.createEmployee(await tenantFor(ctx, args, WRITE), args.input),
    updateEmployee: async (_: unknown, args: { id: string; input: EmployeeInput }, ctx: RequestContext) =>
      ctx.services.scheduling.updateEmployee(await tenantsFor(ctx, WRITE), args.id, args.input),
    createSchedule: async (_: unknown, args: TenantArgs & { input: { storeId: string; weekStart: string } }, ctx: RequestContext) =>
      ctx.services.scheduling.createSchedule(await tenantFor(ctx, args, WRITE), args.input),
    publishSchedule: async (_: unknown, args: { id: string }, ctx: RequestContext) =>
      ctx.services.scheduling.moveSchedule(await tenantsFor(ctx, WRITE), args.id, 'published'),
    archiveSchedule: async (_: unknown, args: { id: string }, ctx: RequestContext) =>
      ctx.services.scheduling.moveSchedule(await tenantsFor(ctx, WRITE), args.id, 'archived'),
    addShift: async (_: unknown, args: { scheduleId: string; input: NewShift }, ctx: RequestContext) =>
      ctx.services.scheduling.addShift(await tenantsFor(ctx, WRITE), args.scheduleId, args.input),
    updateShift: async (_: unknown, args: { id: string; input: ShiftInput }, ctx: RequestContext) =>
      ctx.services.scheduling.updateShift(await tenantsFor(ctx, WRITE), args.id, args.input),
    deleteShift: async (_: unknown, args: { id: string }, ctx: RequestContext) => ctx.services.scheduling.deleteShift(await tenantsFor(ctx, WRITE), args.id),
    requestTimeOff: async (
      _: unknown,
      args: TenantArgs & { input: { employeeId: string; startDate: string; endDate: string; reason?: string | null } },
      ctx: RequestContext,
    ) => ctx.services.scheduling.requestTimeOff(await tenantFor(ctx, args, WRITE), args.input),
    decideTimeOff: async (_: unknown, args: { id: string; decision: 'approved' | 'denied'; decidedBy?: string | null }, ctx: RequestContext) =>
      ctx.services.scheduling.decideTimeOff(await tenantsFor(ctx, WRITE), args.id, args.decision, args.decidedBy),
    recordTimePunch: async (
      _: unknown,
      args: { input: { employeeId: string; storeId?: string | null; clockIn: Date; clockOut?: Date | null } },
      ctx: RequestContext,
    ) => ctx.services.scheduling.recordPunch(await tenantsFor(ctx, WRITE), args.input),
    clockOut: async (_: unknown, args: { employeeId: string; at?: Date | null }, ctx: RequestContext) =>
      ctx.services.scheduling.clockOut(await tenantsFor(ctx, WRITE), args.employeeId, args.at),
    importPosSales: async (_: unknown, args: TenantArgs & { storeId: string; file: UploadedFile }, ctx: RequestContext) =>
      ctx.services.scheduling.importPosSales(await tenantFor(ctx, args, WRITE), args.storeId, csvText(args.file)),
  },
  Schedule: {
    shifts: (schedule: Schedule, _: unknown, ctx: RequestContext) => loaders(ctx).scheduleShifts.load(schedule.id),
    totalHours: async (schedule: Schedule, _: unknown, ctx: RequestContext) =>
      round2((await loaders(ctx).scheduleShifts.load(schedule.id)).reduce((a, s) => a + shiftHours(s), 0)),
  },
  Shift: {
    employee: employeeOf,
    hours: (shift: Shift) => round2(shiftHours(shift)),
  },
  TimeOffRequest: { employee: employeeOf },
  Employee: {
    // Federation: Query._entities, batched by the employee loader (scope scheduling:read; a store-scoped user sees
    // their store's; another partner's is null).
    __resolveReference: async (ref: { id: string }, ctx: RequestContext) => {
      requireAccess(ctx.principal, READ);
      const employee = await loaders(ctx).employee.load(ref.id);
      return employee && visibleStore(ctx.principal, employee.storeId) ? employee : null;
    },
  },
  TimePunch: {
    hours: (p: TimePunch) => (p.clockOut ? round2((p.clockOut.getTime() - p.clockIn.getTime()) / 3_600_000) : null),
  },
} satisfies Resolvers;
