import { type Kysely, sql } from 'kysely';
import type { DB } from '../../platform/db/types.ts';
import { Conflict, InvalidInput } from '../../platform/errors.ts';
import type { Services } from '../services.ts';
import { addDays, dayOfWeek } from '../../platform/lib/timezone.ts';
import { DAYS_OFF, EMPLOYEES, type EmployeeSpec, localInstant, prng, SHIFT_TEMPLATES, STORES, TIME_OFF } from './demo-data.ts';
import { seedInventory, seedSales } from './demo-stock.ts';
import type { DemoSeedSummary } from './demo-seed-summary.ts';

export type { DemoSeedSummary };

// `npm run seed -- --demo`: a restaurant group with a month of back-office data ending today (UTC), entered
// through the services (so every validation rule applies): 3 stores in 3 US time zones, 20 employees, weekly
// schedules with shifts, punches that drift from the shifts as real ones do, point-of-sale net sales, inventory
// items with pack sizes and counts, and time-off requests in every state.
//
// Deterministic: one seeded PRNG, and every date and time is relative to `now`, so two runs on the same day
// produce the same data (apart from generated ids and the API key).
//
// Run twice: refused. The demo partner is recognised by its name; a second run answers 409 naming the existing
// partner (a new key for it: `npm run admin -- create-key --partner <id>`). If seeding fails half-way, the
// partner is deleted again (every row of it cascades), so a failed run can simply be repeated.

export const DEMO_PARTNER_NAME = 'Demo Restaurant Group';
const SEED = 0x5eed_2026;
/** Days in the demo month: today and the 29 days before it. */
const MONTH_DAYS = 30;

export type DemoServices = Pick<Services, 'partners' | 'tenants' | 'inventory' | 'scheduling' | 'uploads' | 'authenticate'>;

// ── seeding ──

/** Serialises seeds within a process (the server's admin endpoint could receive two at once). */
let inFlight: Promise<unknown> | undefined;

/**
 * Creates the demo partner and its month of data; refuses (409) when a demo partner already exists.
 * `now` pins the month (default: the current time); it must not be in the future (punches cannot be).
 */
export async function seedDemo(services: DemoServices, db: Kysely<DB>, options: { now?: Date } = {}): Promise<DemoSeedSummary> {
  const now = options.now ?? new Date();
  if (now.getTime() > Date.now() + 60_000) throw InvalidInput.field('now', 'must not be in the future (the demo punches end by then)');
  if (inFlight) throw new Conflict('a demo seed is already running');
  const run = seed(services, db, now);
  inFlight = run;
  try {
    return await run;
  } finally {
    inFlight = undefined;
  }
}

async function seed(services: DemoServices, db: Kysely<DB>, now: Date): Promise<DemoSeedSummary> {
  const existing = await db.selectFrom('partners').select('id').where('name', '=', DEMO_PARTNER_NAME).orderBy('createdAt').executeTakeFirst();
  if (existing) {
    throw new Conflict(
      `the demo partner already exists (partnerId ${existing.id}); the seed runs once per database. ` +
        `A new key for it: npm run admin -- create-key --partner ${existing.id}`,
    );
  }
  const partner = await services.partners.createPartner({ name: DEMO_PARTNER_NAME, tier: 'embed' });
  try {
    return await fill(services, db, partner, now);
  } catch (err) {
    await db
      .deleteFrom('partners')
      .where('id', '=', partner.partnerId)
      .execute()
      .catch(() => {});
    throw err;
  }
}

async function fill(
  services: DemoServices,
  db: Kysely<DB>,
  partner: { partnerId: string; tenantId: string; apiKey: string },
  now: Date,
): Promise<DemoSeedSummary> {
  const { tenantId } = partner;
  const tenantIds = [tenantId];
  const { scheduling, inventory, tenants } = services;
  const rng = prng(SEED);
  const endDate = now.toISOString().slice(0, 10);
  const startDate = addDays(endDate, -(MONTH_DAYS - 1));
  const firstWeek = addDays(startDate, -dayOfWeek(startDate));
  const thisWeek = addDays(endDate, -dayOfWeek(endDate));
  const nextWeek = addDays(thisWeek, 7);

  // The default tenant allows one location; the group has three.
  await sql`update tenants set max_locations = ${STORES.length} where id = ${tenantId}`.execute(db);

  const stores = [];
  for (const spec of STORES) {
    const { store } = await tenants.createStore(tenantId, { externalStoreId: spec.externalStoreId, name: spec.name, timezone: spec.timezone });
    stores.push(store);
  }

  const employees: { spec: EmployeeSpec; id: string; daysOff: number[] }[] = [];
  for (const spec of EMPLOYEES) {
    const [first, last] = spec.name
      .normalize('NFD')
      .replace(/[\u0300-\u036f']/g, '')
      .toLowerCase()
      .split(' ');
    const employee = await scheduling.createEmployee(tenantId, {
      storeId: stores[spec.store]!.id,
      name: spec.name,
      email: `${first}.${last}@copperkettle.example`,
      position: spec.position,
      hourlyRate: spec.hourlyRate,
    });
    // Six-shift employees (the overtime) take only the first day of their pair off.
    const pair = rng.pick(DAYS_OFF[spec.position]);
    const daysOff: number[] = spec.shifts === 6 ? [pair[0]] : [...pair];
    employees.push({ spec, id: employee.id, daysOff });
  }

  // ── schedules and shifts: every week of the month, and next week's as a draft ──
  const counts = {
    schedules: { published: 0, archived: 0, draft: 0 },
    shifts: 0,
    punches: 0,
    missedShifts: 0,
    extraPunches: 0,
    clockedIn: 0,
  };
  interface Planned {
    employee: (typeof employees)[number];
    timezone: string;
    date: string;
    startsAt: Date;
    endsAt: Date;
    breakMinutes: number;
  }
  const worked: Planned[] = [];
  const shiftsPerEmployee = new Map<string, Set<string>>(); // employee → local dates with a shift
  for (let week = firstWeek; week <= nextWeek; week = addDays(week, 7)) {
    // Weeks before last week are archived; last week and this week are published; next week is a draft.
    const status = week === nextWeek ? 'draft' : week < addDays(thisWeek, -7) ? 'archived' : 'published';
    for (const [s, store] of stores.entries()) {
      const schedule = await scheduling.createSchedule(tenantId, { storeId: store.id, weekStart: week });
      for (const employee of employees.filter((e) => e.spec.store === s)) {
        // Now and then a day off moves to another day of the week (a swap with a colleague).
        const daysOff = [...employee.daysOff];
        if (rng.chance(0.2)) {
          const i = rng.int(0, daysOff.length - 1);
          daysOff[i] = rng.pick([0, 1, 2, 3, 4, 5, 6].filter((d) => !daysOff.includes(d)));
        }
        const templates = SHIFT_TEMPLATES[employee.spec.position];
        const template = templates[Math.min(employee.spec.slot ?? 0, templates.length - 1)]!;
        for (let d = 0; d < 7; d++) {
          if (daysOff.includes(d)) continue;
          const date = addDays(week, d);
          const weekend = d === 5 || d === 6;
          // Start on the hour or half hour; weekend closers stay an extra half hour.
          const start = template.start + rng.pick([0, 0, 0, 30, -30]);
          const length = Math.min(9 * 60, Math.max(6 * 60, template.length + (weekend && template.start >= 14 * 60 ? 30 : 0)));
          const breakMinutes = template.breakMinutes || (length >= 7 * 60 && rng.chance(0.3) ? 30 : 0);
          const startsAt = localInstant(date, start, store.timezone);
          const endsAt = localInstant(date, start + length, store.timezone);
          await scheduling.addShift(tenantIds, schedule.id, {
            employeeId: employee.id,
            startsAt,
            endsAt,
            breakMinutes,
            position: employee.spec.position,
            notes: weekend && rng.chance(0.15) ? 'Busy night: large party booked' : null,
          });
          counts.shifts++;
          let dates = shiftsPerEmployee.get(employee.id);
          if (!dates) shiftsPerEmployee.set(employee.id, (dates = new Set()));
          dates.add(date);
          if (week !== nextWeek) worked.push({ employee, timezone: store.timezone, date, startsAt, endsAt, breakMinutes });
        }
      }
      if (status !== 'draft') await scheduling.moveSchedule(tenantIds, schedule.id, 'published');
      if (status === 'archived') await scheduling.moveSchedule(tenantIds, schedule.id, 'archived');
      counts.schedules[status]++;
    }
  }

  // ── punches: drift a few minutes from the shift, breaks punched out, a few call-outs and extra covers ──
  const latest = now.getTime();
  const minute = 60_000;
  const sickDays = new Set(
    TIME_OFF.filter((r) => r.status === 'approved').flatMap((r) =>
      Array.from({ length: r.days }, (_, d) => `${employees[r.employee]!.id} ${addDays(endDate, r.from + d)}`),
    ),
  );
  for (const shift of worked) {
    if (shift.startsAt.getTime() > latest - 10 * minute) continue; // not started yet
    // Called out (or off sick, with the time off approved afterwards): the shift stays on the schedule, unworked.
    if (sickDays.has(`${shift.employee.id} ${shift.date}`) || rng.chance(0.025)) {
      counts.missedShifts++;
      continue;
    }
    const clockIn = new Date(shift.startsAt.getTime() + Math.round(rng.around(9) - 3 + (rng.chance(0.06) ? rng.int(10, 25) : 0)) * minute);
    const clockOut = new Date(shift.endsAt.getTime() + Math.round(rng.around(12) + 4 + (rng.chance(0.1) ? rng.int(15, 45) : 0)) * minute);
    if (clockIn.getTime() > latest) continue;
    const input = { employeeId: shift.employee.id };
    if (clockOut.getTime() > latest) {
      // In progress: clocked in now, the punch is still open.
      await scheduling.recordPunch(tenantIds, { ...input, clockIn });
      counts.punches++;
      counts.clockedIn++;
      continue;
    }
    if (shift.breakMinutes > 0 && rng.chance(0.7)) {
      const middle = Math.round((shift.startsAt.getTime() + shift.endsAt.getTime()) / 2 / (15 * minute)) * 15 * minute;
      const back = middle + (shift.breakMinutes + Math.round(rng.around(6))) * minute;
      await scheduling.recordPunch(tenantIds, { ...input, clockIn, clockOut: new Date(middle) });
      await scheduling.recordPunch(tenantIds, { ...input, clockIn: new Date(back), clockOut });
      counts.punches += 2;
    } else {
      await scheduling.recordPunch(tenantIds, { ...input, clockIn, clockOut });
      counts.punches++;
    }
  }
  // Covers: a few employees come in on a day off (late morning to mid afternoon), in the past only.
  for (const [i, employee] of employees.entries()) {
    if (i % 4 !== 1) continue;
    const timezone = stores[employee.spec.store]!.timezone;
    const dates = shiftsPerEmployee.get(employee.id)!;
    for (let tries = 0; tries < 20; tries++) {
      const date = addDays(startDate, rng.int(0, MONTH_DAYS - 4));
      if (dates.has(date)) continue;
      const clockIn = localInstant(date, 10 * 60 + 30 + rng.int(0, 30), timezone);
      const clockOut = new Date(clockIn.getTime() + rng.int(4 * 60, 5 * 60) * minute);
      if (clockOut.getTime() > latest) continue;
      await scheduling.recordPunch(tenantIds, { employeeId: employee.id, clockIn, clockOut });
      counts.punches++;
      counts.extraPunches++;
      break;
    }
  }

  const { salesDays, netSales } = await seedSales(scheduling, tenantId, stores, { firstWeek, endDate }, rng);
  const { items, inventoryCounts } = await seedInventory(inventory, tenantId, stores, endDate, rng);
  // Vendor invoices, uploaded as the partner's key would: read, categorised and kept with their originals.
  // pdfkit and its fonts are loaded when a demo is seeded, not by every server that could seed one.
  const { seedInvoices } = await import('./demo-invoices.ts');
  const invoices = await seedInvoices(services, await services.authenticate(partner.apiKey), stores, { startDate, endDate });

  // ── time off: some decided, some waiting for the manager ──
  const timeOff = { pending: 0, approved: 0, denied: 0 };
  for (const r of TIME_OFF) {
    const employee = employees[r.employee]!;
    const startOn = addDays(endDate, r.from);
    const request = await scheduling.requestTimeOff(tenantId, {
      employeeId: employee.id,
      startDate: startOn,
      endDate: addDays(startOn, r.days - 1),
      reason: r.reason,
    });
    if (r.status !== 'pending') {
      const manager = EMPLOYEES.find((e) => e.store === employee.spec.store && e.position === 'manager')!.name;
      await scheduling.decideTimeOff(tenantIds, request.id, r.status, manager);
    }
    timeOff[r.status]++;
  }

  return {
    ...partner,
    startDate,
    endDate,
    stores: stores.map((store, s) => ({
      id: store.id,
      externalStoreId: store.externalStoreId,
      name: store.name ?? store.externalStoreId,
      timezone: store.timezone,
      employees: EMPLOYEES.filter((e) => e.store === s).length,
    })),
    counts: {
      stores: stores.length,
      employees: employees.length,
      ...counts,
      salesDays,
      netSales: Math.round(netSales * 100) / 100,
      inventoryItems: items.length,
      inventoryCounts,
      invoices: invoices.invoices,
      timeOff,
    },
    laborReportPath: `/api/v1/partner/tenants/${tenantId}/scheduling/labor-report?startDate=${startDate}&endDate=${endDate}`,
  };
}
