import { InvalidInput } from '../../platform/errors.ts';
import { optionalText } from '../../platform/lib/text.ts';
import { addDays } from '../../platform/lib/timezone.ts';
import type { EmployeeRow, ScheduleRow, ShiftRow, TimeOffRow, TimePunchRow } from './scheduling.queries.ts';

/** The states a schedule and a time-off request move through (the columns' types, named for the domain). */
export type { ScheduleStatus, TimeOffStatus } from '../../platform/db/types.ts';

// Employees, schedules, shifts, time off and punches as the domain sees them; limits and row mappings.

export type Employee = Omit<EmployeeRow, 'hourlyRate'> & { hourlyRate: number };
export type Schedule = ScheduleRow & { weekEnd: string };
export type Shift = ShiftRow;
export type TimeOffRequest = TimeOffRow;
export type TimePunch = TimePunchRow;

export interface EmployeeInput {
  storeId?: string | null;
  name?: string | null;
  email?: string | null;
  position?: string | null;
  hourlyRate?: number | null;
  active?: boolean | null;
}

export interface ShiftInput {
  employeeId?: string | null;
  startsAt?: Date | null;
  endsAt?: Date | null;
  breakMinutes?: number | null;
  position?: string | null;
  notes?: string | null;
}

/** A new shift: who and when are required (updates may leave them out). */
export type NewShift = ShiftInput & { employeeId: string; startsAt: Date; endsAt: Date };

/** Contract limits: the schedule list is the latest 100, the time-off list the latest 200. */
export const SCHEDULE_LIST_LIMIT = 100;
export const TIME_OFF_LIST_LIMIT = 200;
export const MAX_NAME = 200;
export const MAX_TEXT = 2000;
export const MAX_RATE = 10_000;
export const MAX_SHIFT_HOURS = 24;
export const FUTURE_SKEW_MS = 5 * 60_000;

export function employeeFields(input: EmployeeInput, current: EmployeeRow | undefined) {
  const name = input.name == null ? current?.name : input.name.trim();
  if (!name || name.length > MAX_NAME) throw InvalidInput.field('name', `must be 1 to ${MAX_NAME} characters`);
  const hourlyRate = input.hourlyRate ?? (current ? Number(current.hourlyRate) : undefined);
  if (hourlyRate === undefined || !(Number.isFinite(hourlyRate) && hourlyRate >= 0 && hourlyRate <= MAX_RATE)) {
    throw InvalidInput.field('hourlyRate', `must be a number from 0 to ${MAX_RATE}`);
  }
  return {
    name,
    hourlyRate,
    email: input.email === undefined ? (current?.email ?? null) : (optionalText(input.email, 'email', 320)?.toLowerCase() ?? null),
    position: input.position === undefined ? (current?.position ?? null) : optionalText(input.position, 'position', MAX_NAME),
    active: input.active ?? current?.active ?? true,
  };
}

export const toEmployee = (r: EmployeeRow): Employee => ({ ...r, hourlyRate: Number(r.hourlyRate) });
export const toSchedule = (r: ScheduleRow): Schedule => ({ ...r, weekEnd: addDays(r.weekStart, 6) });
