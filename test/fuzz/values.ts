import fc from 'fast-check';
import { badDate, badDateTime, badEmail, badUuid, deepJson, hostileNumber, hostileText, hugeArray, wrongType } from './hostile.ts';
import { atLimit } from './limits.ts';
import { isUrlInput, safeUrl } from './safe-urls.ts';
import type { SeedIds } from './seed.ts';
import type { Slot } from './slots.ts';

// A value for one input (a REST field or parameter, a GraphQL argument): usually a plausible one — the seeded ids,
// enum values, dates, names — so requests get deep into the service, otherwise a hostile one of the kinds in
// hostile.ts. `hostility` is the share of hostile values, chosen per request, so some requests are clean, some have
// one bad field, some have many.

export type Hostility = 0 | 1 | 4;

/** Seeded ids a UUID input of this name most likely wants, then any seeded id. */
function idPool(name: string, ids: SeedIds): string[] {
  const n = name.toLowerCase();
  const pick = (...keys: Array<keyof SeedIds>) => keys.map((k) => ids[k]);
  if (n.includes('tenant')) return pick('tenantId', 'defaultTenantId');
  if (n.includes('store')) return pick('storeId', 'defaultStoreId');
  if (n.includes('employee')) return pick('employeeId');
  if (n.includes('schedule')) return pick('scheduleId');
  if (n.includes('item')) return pick('itemId');
  if (n.includes('vendor')) return pick('vendorId');
  if (n.includes('shift')) return pick('shiftId');
  return pick('invoiceId', 'receiptId', 'vendorId', 'timeOffId', 'shiftId', 'scheduleId', 'employeeId', 'itemId');
}

function allIds(ids: SeedIds): string[] {
  return Object.entries(ids)
    .filter(([k]) => k.endsWith('Id') && k !== 'externalStoreId')
    .map(([, v]) => v);
}

/** Plausible text for an input of this name. */
function plausibleText(name: string, ids: SeedIds): fc.Arbitrary<string> {
  const n = name.toLowerCase();
  const word = fc.string({ minLength: 1, maxLength: 24 });
  if (n === 'externalstoreid') return fc.oneof(fc.constant(ids.externalStoreId), fc.constantFrom('fuzz-store-2', 'S-1'), word);
  if (n === 'timezone') return fc.constantFrom('America/New_York', 'UTC', 'Europe/Paris', 'Mars/Olympus', 'EST5EDT', '+05:00', '');
  if (n === 'profile') return fc.constantFrom(ids.profileName, 'default', 'missing');
  if (n === 'period') return fc.constantFrom('2026-01', '2026-13', '1999-12', '9999-12', '2026-1', 'now', '');
  if (n === 'unit') return fc.constantFrom('lb', 'case', 'kg', 'each', 'oz', 'gal', 'furlong');
  if (n === 'q' || n === 'query') return fc.constantFrom('produce', 'tomatoes invoice', 'Green Valley', 'coffee', 'a');
  if (n === 'events' || n === 'types')
    return fc.constantFrom('invoice.created', 'invoice.processed', 'invoice.failed', 'receipt.processed', 'vendor.created', 'invoice.*');
  if (n === 'primarycolor') return fc.constantFrom('#336699', '#fff', 'red', 'rgb(0,0,0)', '#12345678');
  if (n === 'after') return fc.constantFrom('', 'MA==', 'eyJpZCI6MX0=', '!!!', 'YWJj');
  if (n === 'store') return fc.constantFrom('true', 'false', '1', '0', 'yes');
  return word;
}

export function plausible(slot: Slot, ids: SeedIds, hostility: Hostility, depth = 0): fc.Arbitrary<unknown> {
  switch (slot.kind) {
    case 'string':
      if (slot.enum) return fc.constantFrom(...slot.enum);
      switch (slot.format) {
        case 'uuid': {
          const pool = idPool(slot.name, ids);
          return fc.oneof(
            { weight: 6, arbitrary: fc.constant(pool[0]!) },
            { weight: 2, arbitrary: fc.constantFrom(...pool) },
            { weight: 1, arbitrary: fc.constantFrom(...allIds(ids)) },
            { weight: 1, arbitrary: fc.uuid() },
          );
        }
        case 'date':
          return fc.date({ min: new Date('2025-06-01'), max: new Date('2026-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
        case 'date-time':
          return fc.date({ min: new Date('2025-06-01'), max: new Date('2026-12-31'), noInvalidDate: true }).map((d) => d.toISOString());
        case 'email':
          return fc.constantFrom('owner@bistro.example', 'm@b.co', 'a.b+c@example.org');
        default:
          return plausibleText(slot.name, ids);
      }
    case 'integer':
      return fc.oneof(fc.integer({ min: 0, max: 100 }), fc.constantFrom(1, 10, 50, 200));
    case 'number':
      return fc.oneof(
        fc.integer({ min: 0, max: 500 }),
        fc.double({ min: 0, max: 1000, noNaN: true }).map((n) => Math.round(n * 100) / 100),
      );
    case 'boolean':
      return fc.boolean();
    case 'json':
      return fc.oneof(
        fc.constant({ number: 'invoiceNumber', total_cents: { path: 'total', as: 'cents' } }),
        fc.constant({ lines: { path: 'lineItems', each: { text: 'description', category: 'costCategory' } } }),
        fc.constant({ d: { path: 'invoiceDate', date: 'MM/DD/YYYY' } }),
        fc.dictionary(fc.string({ maxLength: 10 }), fc.oneof(fc.string({ maxLength: 20 }), fc.constant({ path: 'total' })), { maxKeys: 4 }),
      );
    case 'upload':
      return fc.constant(null);
    case 'array':
      return fc.array(valueFor(slot.items, ids, hostility, depth + 1), { minLength: 1, maxLength: 3 });
    case 'object': {
      const groups = slot.exactlyOne ?? [[]];
      return fc.oneof(
        ...groups.map((group) => {
          const model: Record<string, fc.Arbitrary<unknown>> = {};
          const others = groups.flat().filter((key) => !group.includes(key));
          for (const [key, field] of Object.entries(slot.fields)) if (!others.includes(key)) model[key] = valueFor(field, ids, hostility, depth + 1);
          return fc.record(model, { requiredKeys: [...slot.required, ...group] });
        }),
      );
    }
  }
}

const hostileKey = fc
  .oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'prototype', '\u0000', '', 'a\u0000b', '$set'))
  .filter((k) => !isUrlInput(k));

export function hostile(slot: Slot, ids: SeedIds, depth = 0): fc.Arbitrary<unknown> {
  const limit = atLimit(slot, slot.kind === 'array' ? plausible(slot.items, ids, 0, depth + 1) : undefined);
  const common = [
    { weight: 3, arbitrary: wrongType(slot.kind) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    ...(limit ? [{ weight: 3, arbitrary: limit }] : []),
  ];
  switch (slot.kind) {
    case 'string': {
      const special =
        slot.format === 'uuid'
          ? badUuid
          : slot.format === 'date'
            ? badDate
            : slot.format === 'date-time'
              ? badDateTime
              : slot.format === 'email'
                ? badEmail
                : slot.enum
                  ? fc.oneof(
                      fc.constantFrom(...slot.enum).map((v) => v.toUpperCase()),
                      fc.constantFrom(...slot.enum).map((v) => `${v}\u0000`),
                      fc.constantFrom(...slot.enum).map((v) => ` ${v}`),
                      fc.constantFrom('', '*', 'INVALID', '__proto__'),
                    )
                  : hostileText;
      return fc.oneof({ weight: 5, arbitrary: special }, { weight: 3, arbitrary: hostileText }, ...common);
    }
    case 'integer':
    case 'number':
      return fc.oneof({ weight: 6, arbitrary: hostileNumber }, ...common);
    case 'json':
      return fc.oneof(
        { weight: 2, arbitrary: deepJson },
        { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
        { weight: 2, arbitrary: fc.dictionary(hostileKey, hostileText, { maxKeys: 3 }) },
        ...common,
      );
    case 'array':
      return fc.oneof(
        { weight: 2, arbitrary: hugeArray(plausible(slot.items, ids, 0, depth + 1)) },
        { weight: 1, arbitrary: fc.constant([]) },
        { weight: 2, arbitrary: fc.array(hostile(slot.items, ids, depth + 1), { minLength: 1, maxLength: 3 }) },
        { weight: 1, arbitrary: deepJson },
        ...common,
      );
    case 'object':
      return fc.oneof(
        { weight: 2, arbitrary: fc.constant({}) },
        { weight: 1, arbitrary: deepJson },
        { weight: 2, arbitrary: fc.dictionary(hostileKey, hostileText, { maxKeys: 4 }) },
        // The expected fields plus unknown ones.
        {
          weight: 2,
          arbitrary: fc
            .tuple(plausible(slot, ids, 0, depth + 1), fc.dictionary(hostileKey, hostileText, { minKeys: 1, maxKeys: 3 }))
            .map(([known, extra]) => ({ ...extra, ...(known as object) })),
        },
        ...common,
      );
    default:
      return fc.oneof(...common, { weight: 2, arbitrary: hostileText });
  }
}

/** A value for `slot`: plausible or hostile in the proportion `hostility` (of 10). URL inputs only ever get safe URLs. */
export function valueFor(slot: Slot, ids: SeedIds, hostility: Hostility, depth = 0): fc.Arbitrary<unknown> {
  if (isUrlInput(slot.name) && slot.kind !== 'object' && slot.kind !== 'array') {
    return fc.oneof({ weight: 8, arbitrary: safeUrl(slot.name) }, { weight: 2, arbitrary: wrongType('string') });
  }
  const good = plausible(slot, ids, hostility, depth);
  if (hostility === 0 || depth > 3) return good;
  return fc.oneof({ weight: 10 - hostility, arbitrary: good }, { weight: hostility, arbitrary: hostile(slot, ids, depth) });
}

/** Per request: no hostile values, a few, or many. */
export const hostilityArb: fc.Arbitrary<Hostility> = fc.constantFrom<Hostility>(0, 1, 4);
