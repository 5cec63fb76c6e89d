import { type Kysely, sql } from 'kysely';
import type { DB, PackSize } from '../../platform/db/types.ts';
import { Conflict, InvalidInput } from '../../platform/errors.ts';
import type { CostCategory } from '../../extraction/categories.ts';
import type { Services } from '../services.ts';
import { addDays, dayOfWeek } from '../../platform/lib/timezone.ts';

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
const GROUP = 'Copper Kettle';
const SEED = 0x5eed_2026;
/** Days in the demo month: today and the 29 days before it. */
const MONTH_DAYS = 30;

export type DemoServices = Pick<Services, 'partners' | 'tenants' | 'inventory' | 'scheduling'>;

export interface DemoSeedSummary {
  partnerId: string;
  tenantId: string;
  apiKey: string;
  /** The month the demo fills: the report range to look at. */
  startDate: string;
  endDate: string;
  stores: { id: string; externalStoreId: string; name: string; timezone: string; employees: number }[];
  counts: {
    stores: number;
    employees: number;
    schedules: { published: number; archived: number; draft: number };
    shifts: number;
    punches: number;
    /** Past shifts nobody punched for (call-outs). */
    missedShifts: number;
    /** Punches without a shift (covering for someone). */
    extraPunches: number;
    /** Employees clocked in right now (their shift is in progress). */
    clockedIn: number;
    salesDays: number;
    netSales: number;
    inventoryItems: number;
    inventoryCounts: number;
    timeOff: { pending: number; approved: number; denied: number };
  };
  /** The labor report of the demo month (append to the server's URL, send the key as X-API-Key). */
  laborReportPath: string;
}

// ── deterministic randomness ──

/** mulberry32: small, fast, good enough for demo data, and the same sequence everywhere. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** Integer in [min, max]. */
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    chance: (p: number) => next() < p,
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
    /** Roughly normal (sum of three uniforms), mean 0, spread ±`spread`. */
    around: (spread: number) => ((next() + next() + next()) / 3 - 0.5) * 2 * spread,
  };
}
type Rng = ReturnType<typeof prng>;

// ── local wall-clock time in a store's zone → instant ──

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** How far the zone's wall clock is ahead of UTC at `instant` (ms). */
function zoneOffsetMs(instant: number, timeZone: string): number {
  let f = offsetFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    offsetFormats.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(instant)).map((x) => [x.type, x.value]));
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The instant the store's clock shows `minutes` past local midnight of `date` (minutes may pass 24 h). */
export function localInstant(date: string, minutes: number, timeZone: string): Date {
  const wall = Date.parse(`${date}T00:00:00Z`) + minutes * 60_000;
  const first = wall - zoneOffsetMs(wall, timeZone);
  const second = wall - zoneOffsetMs(first, timeZone); // the offset may differ across a DST change
  return new Date(second);
}

// ── the restaurant group ──

interface StoreSpec {
  externalStoreId: string;
  name: string;
  timezone: string;
  /** Sales scale of the location. */
  volume: number;
}

const STORES: StoreSpec[] = [
  { externalStoreId: 'CK-NYC-01', name: `${GROUP} — Brooklyn`, timezone: 'America/New_York', volume: 1.15 },
  { externalStoreId: 'CK-CHI-02', name: `${GROUP} — West Loop`, timezone: 'America/Chicago', volume: 1.0 },
  { externalStoreId: 'CK-LAX-03', name: `${GROUP} — Santa Monica`, timezone: 'America/Los_Angeles', volume: 0.9 },
];

type Position = 'manager' | 'shift lead' | 'line cook' | 'prep cook' | 'server' | 'bartender' | 'host' | 'dishwasher';

interface EmployeeSpec {
  store: number;
  name: string;
  position: Position;
  hourlyRate: number;
  /** Shifts a week: 5, or 6 for the few who work overtime. */
  shifts: 5 | 6;
  /** Which shift of the position's day: 0 opening, 1 closing (where the position has both). */
  slot?: 0 | 1;
}

const EMPLOYEES: EmployeeSpec[] = [
  { store: 0, name: 'Maria Gonzalez', position: 'manager', hourlyRate: 31, shifts: 6 },
  { store: 0, name: 'Darnell Brooks', position: 'shift lead', hourlyRate: 23.5, shifts: 5 },
  { store: 0, name: 'Kevin Tran', position: 'line cook', hourlyRate: 21, shifts: 6, slot: 0 },
  { store: 0, name: 'Aisha Rahman', position: 'line cook', hourlyRate: 19.5, shifts: 5, slot: 1 },
  { store: 0, name: 'Luis Herrera', position: 'prep cook', hourlyRate: 17, shifts: 5 },
  { store: 0, name: 'Emily Carter', position: 'server', hourlyRate: 14.5, shifts: 5, slot: 1 },
  { store: 0, name: 'Jamal Wright', position: 'bartender', hourlyRate: 16, shifts: 5 },
  { store: 1, name: 'Sarah Kowalski', position: 'manager', hourlyRate: 29, shifts: 6 },
  { store: 1, name: 'Marcus Johnson', position: 'line cook', hourlyRate: 20, shifts: 5, slot: 1 },
  { store: 1, name: 'Grace Kim', position: 'prep cook', hourlyRate: 16.75, shifts: 5 },
  { store: 1, name: 'Priya Patel', position: 'server', hourlyRate: 14.25, shifts: 5, slot: 0 },
  { store: 1, name: 'Derek O\'Neill', position: 'bartender', hourlyRate: 16.5, shifts: 5 },
  { store: 1, name: 'Hannah Schmidt', position: 'host', hourlyRate: 14, shifts: 5 },
  { store: 1, name: 'Tomás Alvarez', position: 'dishwasher', hourlyRate: 15.5, shifts: 5 },
  { store: 2, name: 'Olivia Martinez', position: 'manager', hourlyRate: 30, shifts: 5 },
  { store: 2, name: 'David Nguyen', position: 'shift lead', hourlyRate: 24, shifts: 6 },
  { store: 2, name: 'Ethan Park', position: 'line cook', hourlyRate: 22, shifts: 5, slot: 0 },
  { store: 2, name: 'Sofia Rossi', position: 'server', hourlyRate: 15, shifts: 5, slot: 1 },
  { store: 2, name: 'Andre Williams', position: 'dishwasher', hourlyRate: 16, shifts: 5 },
  { store: 2, name: 'Chloe Bennett', position: 'host', hourlyRate: 14.5, shifts: 5 },
];

/** Shift templates per position: local start (minutes after midnight), length (minutes), unpaid break. */
const SHIFT_TEMPLATES: Record<Position, { start: number; length: number; breakMinutes: number }[]> = {
  manager: [{ start: 9 * 60, length: 9 * 60, breakMinutes: 30 }],
  'shift lead': [{ start: 14 * 60, length: 8 * 60, breakMinutes: 30 }],
  'line cook': [
    { start: 10 * 60, length: 8 * 60, breakMinutes: 30 },
    { start: 15 * 60, length: 8 * 60, breakMinutes: 30 },
  ],
  'prep cook': [{ start: 7 * 60, length: 7 * 60, breakMinutes: 0 }],
  server: [
    { start: 11 * 60, length: 6 * 60, breakMinutes: 0 },
    { start: 16 * 60, length: 6.5 * 60, breakMinutes: 0 },
  ],
  bartender: [{ start: 16 * 60 + 30, length: 8 * 60, breakMinutes: 30 }],
  host: [{ start: 16 * 60, length: 6 * 60, breakMinutes: 0 }],
  dishwasher: [{ start: 15 * 60, length: 8 * 60, breakMinutes: 30 }],
};

/** Pairs of days off a position may take (0 = Sunday); front of house and the closers work the weekend. */
const DAYS_OFF: Record<Position, [number, number][]> = {
  manager: [[0, 1], [1, 2]],
  'shift lead': [[1, 2], [2, 3]],
  'line cook': [[1, 2], [2, 3], [3, 4]],
  'prep cook': [[0, 1], [0, 6]],
  server: [[1, 2], [2, 3]],
  bartender: [[1, 2], [0, 1]],
  host: [[2, 3], [1, 3]],
  dishwasher: [[1, 2], [3, 4]],
};

/** Net sales of an average weekday, by day of week (Sunday first): weekends sell more. */
const DAILY_SALES = [3400, 2300, 2200, 2450, 2800, 4100, 4600];

interface ItemSpec {
  name: string;
  sku: string;
  category: CostCategory;
  unit: string;
  defaultCost: number;
  packSizes?: PackSize[];
  parLevel: number;
  /** Stocked at one store only (its index); otherwise at every store. */
  store?: number;
}

const ITEMS: ItemSpec[] = [
  { name: 'Chicken breast, boneless skinless', sku: 'FD-1001', category: 'food_cost', unit: 'lb', defaultCost: 3.49, packSizes: [{ unit: 'case', quantity: 40 }], parLevel: 80 },
  { name: 'Ground beef 80/20', sku: 'FD-1002', category: 'food_cost', unit: 'lb', defaultCost: 4.29, packSizes: [{ unit: 'case', quantity: 20 }], parLevel: 60 },
  { name: 'Atlantic salmon fillet', sku: 'FD-1003', category: 'food_cost', unit: 'lb', defaultCost: 11.5, packSizes: [{ unit: 'case', quantity: 10 }], parLevel: 25 },
  { name: 'Brioche burger buns', sku: 'FD-1004', category: 'food_cost', unit: 'each', defaultCost: 0.42, packSizes: [{ unit: 'pack', quantity: 12 }, { unit: 'case', quantity: 96 }], parLevel: 240 },
  { name: 'Romaine hearts', sku: 'FD-1005', category: 'food_cost', unit: 'each', defaultCost: 0.89, packSizes: [{ unit: 'case', quantity: 24 }], parLevel: 72 },
  { name: 'Roma tomatoes', sku: 'FD-1006', category: 'food_cost', unit: 'lb', defaultCost: 1.69, packSizes: [{ unit: 'case', quantity: 25 }], parLevel: 50 },
  { name: 'Yellow onions', sku: 'FD-1007', category: 'food_cost', unit: 'lb', defaultCost: 0.79, packSizes: [{ unit: 'bag', quantity: 50 }], parLevel: 75 },
  { name: 'Russet potatoes', sku: 'FD-1008', category: 'food_cost', unit: 'lb', defaultCost: 0.59, packSizes: [{ unit: 'bag', quantity: 50 }], parLevel: 150 },
  { name: 'Cheddar cheese, shredded', sku: 'FD-1009', category: 'food_cost', unit: 'lb', defaultCost: 3.99, packSizes: [{ unit: 'bag', quantity: 5 }, { unit: 'case', quantity: 20 }], parLevel: 30 },
  { name: 'Unsalted butter', sku: 'FD-1010', category: 'food_cost', unit: 'lb', defaultCost: 4.1, packSizes: [{ unit: 'case', quantity: 36 }], parLevel: 36 },
  { name: 'Large eggs', sku: 'FD-1011', category: 'food_cost', unit: 'each', defaultCost: 0.21, packSizes: [{ unit: 'case', quantity: 180 }], parLevel: 360 },
  { name: 'All-purpose flour', sku: 'FD-1012', category: 'food_cost', unit: 'lb', defaultCost: 0.48, packSizes: [{ unit: 'bag', quantity: 50 }], parLevel: 100 },
  { name: 'Canola frying oil', sku: 'FD-1013', category: 'food_cost', unit: 'gal', defaultCost: 9.75, packSizes: [{ unit: 'case', quantity: 6 }], parLevel: 18 },
  { name: 'Heavy cream', sku: 'FD-1014', category: 'food_cost', unit: 'qt', defaultCost: 3.2, packSizes: [{ unit: 'case', quantity: 12 }], parLevel: 24 },
  { name: 'Penne rigate', sku: 'FD-1015', category: 'food_cost', unit: 'lb', defaultCost: 1.1, packSizes: [{ unit: 'case', quantity: 20 }], parLevel: 40 },
  { name: 'Deep-dish pizza dough balls', sku: 'FD-2001', category: 'food_cost', unit: 'each', defaultCost: 1.35, packSizes: [{ unit: 'tray', quantity: 15 }], parLevel: 90, store: 1 },
  { name: 'Pacific oysters', sku: 'FD-2002', category: 'food_cost', unit: 'each', defaultCost: 1.05, packSizes: [{ unit: 'box', quantity: 100 }], parLevel: 200, store: 2 },
  { name: 'House coffee beans', sku: 'NA-3001', category: 'nonalcoholic_beverage_cost', unit: 'lb', defaultCost: 8.5, packSizes: [{ unit: 'bag', quantity: 5 }], parLevel: 20 },
  { name: 'Cola syrup, bag-in-box', sku: 'NA-3002', category: 'nonalcoholic_beverage_cost', unit: 'gal', defaultCost: 14, packSizes: [{ unit: 'box', quantity: 5 }], parLevel: 15 },
  { name: 'Orange juice', sku: 'NA-3003', category: 'nonalcoholic_beverage_cost', unit: 'gal', defaultCost: 7.4, packSizes: [{ unit: 'case', quantity: 4 }], parLevel: 8 },
  { name: 'Local IPA, draft', sku: 'BR-4001', category: 'beer_cost', unit: 'gal', defaultCost: 12.19, packSizes: [{ unit: 'keg', quantity: 15.5 }], parLevel: 31 },
  { name: 'Mexican lager, 12 oz bottle', sku: 'BR-4002', category: 'beer_cost', unit: 'bottle', defaultCost: 1.15, packSizes: [{ unit: 'case', quantity: 24 }], parLevel: 96 },
  { name: 'House Cabernet Sauvignon, 750 ml', sku: 'WN-5001', category: 'wine_cost', unit: 'bottle', defaultCost: 9.5, packSizes: [{ unit: 'case', quantity: 12 }], parLevel: 36 },
  { name: 'House Chardonnay, 750 ml', sku: 'WN-5002', category: 'wine_cost', unit: 'bottle', defaultCost: 8.75, packSizes: [{ unit: 'case', quantity: 12 }], parLevel: 36 },
  { name: 'Prosecco, 750 ml', sku: 'WN-5003', category: 'wine_cost', unit: 'bottle', defaultCost: 10.25, packSizes: [{ unit: 'case', quantity: 12 }], parLevel: 24 },
  { name: 'Well vodka, 1 l', sku: 'LQ-6001', category: 'liquor_cost', unit: 'bottle', defaultCost: 12.9, packSizes: [{ unit: 'case', quantity: 12 }], parLevel: 12 },
  { name: 'Kentucky bourbon, 750 ml', sku: 'LQ-6002', category: 'liquor_cost', unit: 'bottle', defaultCost: 24, packSizes: [{ unit: 'case', quantity: 12 }], parLevel: 8 },
  { name: 'Blanco tequila, 750 ml', sku: 'LQ-6003', category: 'liquor_cost', unit: 'bottle', defaultCost: 21, packSizes: [{ unit: 'case', quantity: 6 }], parLevel: 6 },
  { name: 'To-go clamshell, 9 x 9', sku: 'PP-7001', category: 'paper_packaging', unit: 'each', defaultCost: 0.19, packSizes: [{ unit: 'case', quantity: 200 }], parLevel: 400 },
  { name: 'Dinner napkins, 2-ply', sku: 'PP-7002', category: 'paper_packaging', unit: 'each', defaultCost: 0.02, packSizes: [{ unit: 'case', quantity: 3000 }], parLevel: 3000 },
  { name: 'Nitrile gloves, large', sku: 'SP-8001', category: 'supply_cost', unit: 'each', defaultCost: 0.06, packSizes: [{ unit: 'box', quantity: 100 }, { unit: 'case', quantity: 1000 }], parLevel: 1000 },
  { name: 'Quat sanitizer concentrate', sku: 'SP-8002', category: 'supply_cost', unit: 'gal', defaultCost: 18, packSizes: [{ unit: 'case', quantity: 4 }], parLevel: 4 },
  { name: 'Rocks glass, 10 oz', sku: 'SW-9001', category: 'smallwares', unit: 'each', defaultCost: 2.4, packSizes: [{ unit: 'case', quantity: 36 }], parLevel: 72 },
  { name: 'Bar towels', sku: 'LU-9101', category: 'linen_uniform', unit: 'each', defaultCost: 0.55, parLevel: 120 },
  { name: 'Logo T-shirt', sku: 'RM-9201', category: 'retail_merchandise_cost', unit: 'each', defaultCost: 7.8, packSizes: [{ unit: 'box', quantity: 24 }], parLevel: 24, store: 0 },
];

/** Time-off requests: employee (index in EMPLOYEES), first day relative to today, days, and how it ended. */
const TIME_OFF: { employee: number; from: number; days: number; reason: string; status: 'pending' | 'approved' | 'denied' }[] = [
  { employee: 3, from: 9, days: 3, reason: 'Family wedding out of town', status: 'pending' },
  { employee: 10, from: 12, days: 1, reason: 'Dentist appointment', status: 'pending' },
  { employee: 17, from: 16, days: 2, reason: 'Moving apartments', status: 'pending' },
  { employee: 5, from: -12, days: 2, reason: 'Sick: flu', status: 'approved' },
  { employee: 12, from: 20, days: 5, reason: 'Vacation', status: 'approved' },
  { employee: 6, from: 4, days: 2, reason: 'Concert out of town', status: 'denied' },
  { employee: 19, from: 2, days: 1, reason: 'Personal day', status: 'denied' },
];

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
    await db.deleteFrom('partners').where('id', '=', partner.partnerId).execute().catch(() => {});
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
    const [first, last] = spec.name.normalize('NFD').replace(/[\u0300-\u036f']/g, '').toLowerCase().split(' ');
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
  interface Planned { employee: (typeof employees)[number]; timezone: string; date: string; startsAt: Date; endsAt: Date; breakMinutes: number }
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

  // ── point-of-sale net sales: every closed business day (through yesterday) since the first schedule ──
  const yesterday = addDays(endDate, -1);
  let salesDays = 0;
  let netSales = 0;
  for (const [s, store] of stores.entries()) {
    const rows = ['business_date,net_sales'];
    for (let date = firstWeek; date <= yesterday; date = addDays(date, 1)) {
      const amount = Math.round(DAILY_SALES[dayOfWeek(date)]! * STORES[s]!.volume * (1 + rng.around(0.12)) * 100) / 100;
      rows.push(`${date},"${money(amount)}"`);
    }
    const imported = await scheduling.importPosSales(tenantId, store.id, `${rows.join('\n')}\n`);
    salesDays += imported.days;
    netSales += imported.totalNetSales;
  }

  // ── inventory: items with pack sizes and par levels, counted at every store on two dates ──
  const items = [];
  for (const spec of ITEMS) {
    const item = await inventory.createItem(tenantId, {
      name: spec.name,
      sku: spec.sku,
      category: spec.category,
      unit: spec.unit,
      defaultCost: spec.defaultCost,
      packSizes: spec.packSizes ?? [],
      parLevel: spec.parLevel,
      storeId: spec.store === undefined ? null : stores[spec.store]!.id,
    });
    items.push({ spec, id: item.id });
  }
  let inventoryCounts = 0;
  const countDates = [addDays(endDate, -22), addDays(endDate, -8)];
  for (const [s, store] of stores.entries()) {
    const manager = EMPLOYEES.find((e) => e.store === s && e.position === 'manager')!.name;
    for (const date of countDates) {
      // After close, 22:45 local time (a week or more ago: never in the future).
      const countedAt = localInstant(date, 22 * 60 + 45, store.timezone);
      for (const item of items) {
        if (item.spec.store !== undefined && item.spec.store !== s) continue;
        const onHand = item.spec.parLevel * (0.35 + rng.next() * 0.95);
        const pack = item.spec.packSizes?.at(-1);
        const inPacks = pack && onHand >= pack.quantity / 2 && rng.chance(0.4);
        const quantity = inPacks ? Math.max(0.5, Math.round((onHand / pack.quantity) * 2) / 2) : countRound(item.spec.unit, onHand);
        await inventory.recordCount(tenantId, {
          storeId: store.id,
          itemId: item.id,
          quantity,
          unit: inPacks ? pack.unit : null,
          countedAt,
          countedBy: manager,
          notes: quantity < item.spec.parLevel * 0.5 && !inPacks ? 'Below half of par: reorder' : null,
        });
        inventoryCounts++;
      }
    }
  }

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
      timeOff,
    },
    laborReportPath: `/api/v1/partner/tenants/${tenantId}/scheduling/labor-report?startDate=${startDate}&endDate=${endDate}`,
  };
}

/** A count as a person writes it down: whole pieces and bottles to a tenth, weights to a half, volumes to a quarter. */
function countRound(unit: string, value: number): number {
  const step = unit === 'each' ? 1 : unit === 'bottle' ? 0.1 : unit === 'lb' ? 0.5 : 0.25;
  return Math.round(Math.round(value / step) * step * 100) / 100;
}

const money = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
