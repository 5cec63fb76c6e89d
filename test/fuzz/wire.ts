import fc from 'fast-check';

// Values too big to generate (or shrink) character by character, kept as a recipe and written out only when a
// request is sent: a string repeated to 1 MB, JSON nested 100,000 deep, an array of 100,000 items, a JSON number
// JavaScript cannot hold. They print as the recipe, so a shrunk counterexample stays readable.

/** `unit` repeated `count` times. */
export class Huge {
  constructor(
    readonly unit: string,
    readonly count: number,
  ) {}
  text(): string {
    return this.unit.repeat(this.count);
  }
  [fc.toStringMethod](): string {
    return `${JSON.stringify(this.unit)}.repeat(${this.count})`;
  }
}

/** JSON nested `depth` levels: [[[…]]] or {"a":{"a":…}}. */
export class Deep {
  constructor(
    readonly depth: number,
    readonly shape: 'array' | 'object',
  ) {}
  json(): string {
    return this.shape === 'array' ? `${'['.repeat(this.depth)}${']'.repeat(this.depth)}` : `${'{"a":'.repeat(this.depth)}1${'}'.repeat(this.depth)}`;
  }
  [fc.toStringMethod](): string {
    return `Deep(${this.depth}, ${this.shape})`;
  }
}

/** A JSON array of `item` repeated `count` times. */
export class Many {
  constructor(
    readonly item: unknown,
    readonly count: number,
  ) {}
  [fc.toStringMethod](): string {
    return `Array(${this.count}).fill(${fc.stringify(this.item)})`;
  }
}

/** JSON text written as is (numbers like 1e400, which JSON.stringify cannot produce). */
export class RawJson {
  constructor(readonly json: string) {}
  [fc.toStringMethod](): string {
    return `raw(${this.json})`;
  }
}

/** The JSON text of a value that may hold the recipes above (iterative: generated values are shallow, recipes are not). */
export function toJsonText(value: unknown): string {
  if (value instanceof Huge) return JSON.stringify(value.text());
  if (value instanceof Deep) return value.json();
  if (value instanceof RawJson) return value.json;
  if (value instanceof Many) {
    const item = toJsonText(value.item);
    return value.count === 0 ? '[]' : `[${`${item},`.repeat(value.count - 1)}${item}]`;
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : toJsonText(v))).join(',')}]`;
  if (value && typeof value === 'object') {
    const fields = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A value where text is expected (a query parameter, a form field, a header): recipes written out, JSON for the rest. */
export function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Huge) return value.text();
  return toJsonText(value);
}

/** A readable, bounded rendering for reports. */
export function preview(value: unknown, max = 600): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : fc.stringify(value);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}
