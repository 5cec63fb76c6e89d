// Typed values of e-invoice elements: amounts (xs:decimal), dates (CII format 102, ISO), unit codes.
import type { XNode } from './xml-tree.ts';

/** A decimal as the schemas write it ("1005.55", "-90"); a decimal comma is tolerated. Null otherwise. */
export function decimal(node: XNode | null): number | null {
  const raw = node?.text.trim().replace(/\s+/g, '');
  if (!raw) return null;
  const s = /^[+-]?\d+,\d+$/.test(raw) ? raw.replace(',', '.') : raw;
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

/** Of several amounts (e.g. tax in the invoice and in the accounting currency), the one in `currency`. */
export function inCurrency(nodes: XNode[], currency: string | null): XNode | null {
  return nodes.find((n) => currency && n.attrs.currencyID === currency) ?? nodes.find((n) => !n.attrs.currencyID) ?? nodes[0] ?? null;
}

/** A calendar day as ISO yyyy-mm-dd from CII's format 102 (yyyymmdd) or an ISO date (UBL); null otherwise. */
export function isoDay(raw: string | null): string | null {
  const s = raw?.trim();
  if (!s) return null;
  const m = /^(\d{4})-?(\d{2})-?(\d{2})(?:$|[TZ+-])/.exec(s);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

export const round = (n: number, places: number): number => Math.round(n * 10 ** places) / 10 ** places;

/** A price stated per base quantity (e.g. 30.00 per 3 units) as the price of one unit. */
export function unitPrice(price: number | null, basisQuantity: number | null): number | null {
  if (price === null) return null;
  return basisQuantity && basisQuantity !== 1 ? round(price / basisQuantity, 4) : price;
}

/** Sum of the values, or null when none is known. */
export function sum(values: ReadonlyArray<number | null>): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length
    ? round(
        known.reduce((a, b) => a + b, 0),
        2,
      )
    : null;
}

/** Text with runs of white space (line breaks in names) folded to one space. */
export const oneLine = (s: string | null): string | null => (s ? s.replace(/\s+/g, ' ').trim() || null : null);

// UN/ECE Recommendation 20 (and 21, the X-prefixed package codes) as people write them on invoices. Codes not
// listed are passed through as they are.
const UNITS: Record<string, string> = {
  C62: 'ea',
  EA: 'ea',
  H87: 'pc',
  XPP: 'pc',
  NAR: 'pc',
  NPR: 'pair',
  PR: 'pair',
  SET: 'set',
  LS: 'lump sum',
  KGM: 'kg',
  GRM: 'g',
  MGM: 'mg',
  TNE: 't',
  LBR: 'lb',
  ONZ: 'oz',
  LTR: 'l',
  MLT: 'ml',
  CLT: 'cl',
  DLT: 'dl',
  HLT: 'hl',
  MTQ: 'm³',
  GLL: 'gal',
  QT: 'qt',
  MTR: 'm',
  CMT: 'cm',
  MMT: 'mm',
  KMT: 'km',
  MTK: 'm²',
  FOT: 'ft',
  INH: 'in',
  SEC: 's',
  MIN: 'min',
  HUR: 'h',
  DAY: 'day',
  WEE: 'week',
  MON: 'month',
  ANN: 'year',
  KWH: 'kWh',
  MWH: 'MWh',
  KWT: 'kW',
  P1: '%',
  DZN: 'dozen',
  XBX: 'box',
  XCT: 'carton',
  XCS: 'case',
  XBO: 'bottle',
  XPK: 'pack',
  XPA: 'packet',
  XPX: 'pallet',
  XCR: 'crate',
  XBG: 'bag',
  XSA: 'sack',
  XKG: 'keg',
  XRO: 'roll',
  XTU: 'tube',
  XCA: 'can',
  XBE: 'bundle',
  XTN: 'tin',
  XJR: 'jar',
};

/** A readable unit for a unit code ("KGM" → "kg"); the code itself when unknown; null when absent. */
export function readableUnit(code: string | undefined): string | null {
  const c = code?.trim();
  if (!c) return null;
  const key = c.toUpperCase();
  return Object.hasOwn(UNITS, key) ? UNITS[key]! : c;
}
