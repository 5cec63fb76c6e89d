// Kysely's CamelCasePlugin renames every result row's keys (and, recursively, those of plain objects in json
// columns) on the event loop: ~4% of a 35-item read's main-thread time. Both drivers build their rows with these
// names instead, once per column: the embedded database on its own thread (pglite-protocol.ts), PostgreSQL from
// node-postgres' array rows (pg-renamed-rows.ts); the Kysely instance keeps only the plugin's query half
// (CamelCaseQueries in connect.ts). This is the plugin's renaming with its default options, written out so the
// database's thread does not load Kysely (with `pg`, 10–20 MB of idle RSS); test/unit/camel-case-rows.test.ts holds
// it to the plugin's own output, test/db/pglite-dialect.test.ts the PostgreSQL rows to the plugin's rows.

/** CamelCasePlugin's renaming, applied where the rows are read. */
export class RowNames {
  readonly #columns = new Map<string, string>();

  /** A column's key in a row (remembered: a statement's columns are few and recur). */
  name(column: string): string {
    let name = this.#columns.get(column);
    if (name === undefined) this.#columns.set(column, (name = camelCase(column)));
    return name;
  }

  /** A value as the plugin leaves it: a plain object (json), or one inside an array, has its keys renamed too. */
  value(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => (isPlainObject(item) ? this.#object(item) : item));
    return isPlainObject(value) ? this.#object(value) : value;
  }

  #object(object: Record<string, unknown>): Record<string, unknown> {
    const renamed: Record<string, unknown> = {};
    for (const key of Object.keys(object)) {
      const value = object[key];
      renamed[camelCase(key)] = typeof value === 'object' && value !== null ? this.value(value) : value;
    }
    return renamed;
  }
}

/** Kysely's camel-case mapper (default options): underscores dropped, the character after one upper-cased. */
function camelCase(name: string): string {
  if (!name.includes('_')) return name; // most json keys: already camel-cased
  let out = name[0]!;
  for (let i = 1; i < name.length; i++) {
    const char = name[i]!;
    if (char !== '_') out += name[i - 1] === '_' ? char.toUpperCase() : char;
  }
  return out;
}

/** Kysely's test for what its plugin recurses into: an object whose prototype is the root of its chain (or none). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Object.prototype.toString.call(value) !== '[object Object]') return false;
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto === null || Object.getPrototypeOf(proto) === null;
}
