import type { PackSize } from '../../platform/db/types.ts';
import type { CostCategory } from '../../extraction/categories.ts';

// The demo restaurant group of `npm run seed -- --demo`: its stores, staff, shift patterns, sales and stock,
// and the seeded randomness and local-time helpers the seed draws them with.

const GROUP = 'Copper Kettle';

// ── deterministic randomness ──

/** mulberry32: small, fast, good enough for demo data, and the same sequence everywhere. */
export function prng(seed: number) {
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
export type Rng = ReturnType<typeof prng>;

// ── local wall-clock time in a store's zone → instant ──

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** How far the zone's wall clock is ahead of UTC at `instant` (ms). */
export function zoneOffsetMs(instant: number, timeZone: string): number {
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

export interface StoreSpec {
  externalStoreId: string;
  name: string;
  timezone: string;
  /** Sales scale of the location. */
  volume: number;
}

export const STORES: StoreSpec[] = [
  { externalStoreId: 'CK-NYC-01', name: `${GROUP} — Brooklyn`, timezone: 'America/New_York', volume: 1.15 },
  { externalStoreId: 'CK-CHI-02', name: `${GROUP} — West Loop`, timezone: 'America/Chicago', volume: 1.0 },
  { externalStoreId: 'CK-LAX-03', name: `${GROUP} — Santa Monica`, timezone: 'America/Los_Angeles', volume: 0.9 },
];

export type Position = 'manager' | 'shift lead' | 'line cook' | 'prep cook' | 'server' | 'bartender' | 'host' | 'dishwasher';

export interface EmployeeSpec {
  store: number;
  name: string;
  position: Position;
  hourlyRate: number;
  /** Shifts a week: 5, or 6 for the few who work overtime. */
  shifts: 5 | 6;
  /** Which shift of the position's day: 0 opening, 1 closing (where the position has both). */
  slot?: 0 | 1;
}

export const EMPLOYEES: EmployeeSpec[] = [
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
export const SHIFT_TEMPLATES: Record<Position, { start: number; length: number; breakMinutes: number }[]> = {
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
export const DAYS_OFF: Record<Position, [number, number][]> = {
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
export const DAILY_SALES = [3400, 2300, 2200, 2450, 2800, 4100, 4600];

export interface ItemSpec {
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

export const ITEMS: ItemSpec[] = [
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
export const TIME_OFF: { employee: number; from: number; days: number; reason: string; status: 'pending' | 'approved' | 'denied' }[] = [
  { employee: 3, from: 9, days: 3, reason: 'Family wedding out of town', status: 'pending' },
  { employee: 10, from: 12, days: 1, reason: 'Dentist appointment', status: 'pending' },
  { employee: 17, from: 16, days: 2, reason: 'Moving apartments', status: 'pending' },
  { employee: 5, from: -12, days: 2, reason: 'Sick: flu', status: 'approved' },
  { employee: 12, from: 20, days: 5, reason: 'Vacation', status: 'approved' },
  { employee: 6, from: 4, days: 2, reason: 'Concert out of town', status: 'denied' },
  { employee: 19, from: 2, days: 1, reason: 'Personal day', status: 'denied' },
];

/** A count as a person writes it down: whole pieces and bottles to a tenth, weights to a half, volumes to a quarter. */
export function countRound(unit: string, value: number): number {
  const step = unit === 'each' ? 1 : unit === 'bottle' ? 0.1 : unit === 'lb' ? 0.5 : 0.25;
  return Math.round(Math.round(value / step) * step * 100) / 100;
}

export const money = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
