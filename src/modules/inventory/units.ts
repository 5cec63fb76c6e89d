import type { PackSize } from '../../platform/db/types.ts';
import { InvalidInput } from '../../platform/errors.ts';

// Units an item is costed in and counted in. Standard units convert within their dimension by fixed factors;
// an item's pack sizes (a case of 24 each, a bag of 50 lb) convert to the item's unit by its own factors.
type Dimension = 'mass' | 'volume' | 'count';

/** Each standard unit in its dimension's base (g, ml, each). */
const STANDARD: Record<string, { dimension: Dimension; factor: number }> = {
  g: { dimension: 'mass', factor: 1 },
  kg: { dimension: 'mass', factor: 1000 },
  oz: { dimension: 'mass', factor: 28.349523125 },
  lb: { dimension: 'mass', factor: 453.59237 },
  ml: { dimension: 'volume', factor: 1 },
  l: { dimension: 'volume', factor: 1000 },
  fl_oz: { dimension: 'volume', factor: 29.5735295625 },
  cup: { dimension: 'volume', factor: 236.5882365 },
  pt: { dimension: 'volume', factor: 473.176473 },
  qt: { dimension: 'volume', factor: 946.352946 },
  gal: { dimension: 'volume', factor: 3785.411784 },
  each: { dimension: 'count', factor: 1 },
  dozen: { dimension: 'count', factor: 12 },
};

const ALIASES: Record<string, string> = {
  gram: 'g',
  grams: 'g',
  gr: 'g',
  kilogram: 'kg',
  kilograms: 'kg',
  kgs: 'kg',
  kilo: 'kg',
  kilos: 'kg',
  ounce: 'oz',
  ounces: 'oz',
  pound: 'lb',
  pounds: 'lb',
  lbs: 'lb',
  '#': 'lb',
  milliliter: 'ml',
  milliliters: 'ml',
  millilitre: 'ml',
  millilitres: 'ml',
  liter: 'l',
  liters: 'l',
  litre: 'l',
  litres: 'l',
  lt: 'l',
  ltr: 'l',
  'fl oz': 'fl_oz',
  'fl. oz': 'fl_oz',
  'fl.oz': 'fl_oz',
  floz: 'fl_oz',
  'fluid ounce': 'fl_oz',
  'fluid ounces': 'fl_oz',
  cups: 'cup',
  pint: 'pt',
  pints: 'pt',
  quart: 'qt',
  quarts: 'qt',
  gallon: 'gal',
  gallons: 'gal',
  ea: 'each',
  unit: 'each',
  units: 'each',
  pc: 'each',
  pcs: 'each',
  piece: 'each',
  pieces: 'each',
  ct: 'each',
  count: 'each',
  dz: 'dozen',
  doz: 'dozen',
  cases: 'case',
  cs: 'case',
  bags: 'bag',
  boxes: 'box',
  bx: 'box',
  packs: 'pack',
  pk: 'pack',
  sleeves: 'sleeve',
  cans: 'can',
  bottles: 'bottle',
  btl: 'bottle',
  kegs: 'keg',
  trays: 'tray',
  jars: 'jar',
  rolls: 'roll',
  tubs: 'tub',
};

const MAX_UNIT = 40;

/** The unit in its canonical spelling: lowercase, `lbs`/`pounds` → `lb`, `cases` → `case`. */
export function normalizeUnit(raw: string, field = 'unit'): string {
  const unit = raw.trim().toLowerCase().replace(/\s+/g, ' ').replace(/\.$/, '');
  if (!unit) throw InvalidInput.field(field, 'must not be empty');
  if (unit.length > MAX_UNIT) throw InvalidInput.field(field, `must be at most ${MAX_UNIT} characters`);
  return ALIASES[unit] ?? unit;
}

/** Checks an item's unit and pack sizes; returns them normalised. */
export function validatePackSizes(unit: string, packSizes: readonly PackSize[]): PackSize[] {
  const seen = new Set<string>([unit]);
  return packSizes.map((p, i) => {
    const field = `packSizes[${i}]`;
    const packUnit = normalizeUnit(p.unit, `${field}.unit`);
    if (!(Number.isFinite(p.quantity) && p.quantity > 0 && p.quantity <= 1_000_000)) {
      throw InvalidInput.field(`${field}.quantity`, `must be a number above 0 and at most 1000000 (got ${p.quantity})`);
    }
    if (seen.has(packUnit)) throw InvalidInput.field(`${field}.unit`, `"${packUnit}" is listed twice or is the item's own unit`);
    const fixed = standardFactor(packUnit, unit);
    if (fixed !== undefined) {
      throw InvalidInput.field(`${field}.unit`, `"${packUnit}" converts to ${unit} by a fixed factor (${round(fixed)}); leave it out`);
    }
    seen.add(packUnit);
    return { unit: packUnit, quantity: p.quantity };
  });
}

/**
 * How many of the item's unit one `counted` unit is: 1 for the item's own unit, the pack size for a pack unit,
 * the fixed factor between standard units of one dimension. Anything else is refused, listing what works.
 */
export function conversionFactor(counted: string, item: { unit: string; packSizes: readonly PackSize[] }): number {
  const unit = normalizeUnit(counted);
  if (unit === item.unit) return 1;
  const pack = item.packSizes.find((p) => p.unit === unit);
  if (pack) return pack.quantity;
  const fixed = standardFactor(unit, item.unit);
  if (fixed !== undefined) return fixed;
  throw InvalidInput.field('unit', `"${unit}" cannot be converted to this item's unit "${item.unit}"; count in ${acceptedUnits(item).join(', ')}`);
}

function standardFactor(from: string, to: string): number | undefined {
  const a = STANDARD[from];
  const b = STANDARD[to];
  return a && b && a.dimension === b.dimension ? a.factor / b.factor : undefined;
}

function acceptedUnits(item: { unit: string; packSizes: readonly PackSize[] }): string[] {
  const dimension = STANDARD[item.unit]?.dimension;
  const standard = dimension ? Object.keys(STANDARD).filter((u) => u !== item.unit && STANDARD[u]!.dimension === dimension) : [];
  return [item.unit, ...item.packSizes.map((p) => `${p.unit} (${p.quantity} ${item.unit})`), ...standard];
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;
