import type { Slot } from './slots.ts';
import { Deep, Huge, Many, RawJson } from './wire.ts';

// A generated value written inline into a document instead of passed as a variable: enum-looking strings where an
// enum is expected go bare, everything else as GraphQL would read it (or would fail to: keys that are not names,
// lone surrogates in escapes, 100,000 nested lists).

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

export function printLiteral(value: unknown, slot: Slot | undefined): string {
  if (value === undefined || value === null) return 'null';
  if (value instanceof Huge) return JSON.stringify(value.text());
  if (value instanceof RawJson) return value.json;
  if (value instanceof Deep) return `${'['.repeat(value.depth)}${']'.repeat(value.depth)}`;
  if (value instanceof Many) {
    const item = printLiteral(value.item, slot?.kind === 'array' ? slot.items : slot);
    return `[${`${item} `.repeat(value.count)}]`;
  }
  if (typeof value === 'string') return slot?.kind === 'string' && slot.enum && NAME.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number') return Object.is(value, -0) ? '0' : String(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map((v) => printLiteral(v, slot?.kind === 'array' ? slot.items : slot)).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}: ${printLiteral(v, slot?.kind === 'object' ? slot.fields[k] : undefined)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(String(value));
}
