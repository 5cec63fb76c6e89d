// Rows as objects, from a result's column names and its rows' arrays of values (both drivers read rows as arrays:
// pglite-protocol.ts, pg-renamed-rows.ts). Each distinct list of columns gets a function that builds its row as one
// object literal, so every row of a statement is born with the same shape at once, instead of being built key by key
// through a property store that sees every statement's columns (V8's megamorphic keyed store): measured on the demo
// seed's 35 inventory items (13 columns) 1.3–1.8 µs per result instead of 10.8–12.0, and `perf record` of a REST read
// on PostgreSQL had the keyed stores at 1.8% of the event loop.

type RowMaker = (values: readonly unknown[]) => Record<string, unknown>;

/** Distinct column lists remembered; past this (never in the server, whose statements are its own) rows are built key by key. */
const MAX_SHAPES = 2000;
const makers = new Map<string, RowMaker>();

/** The rows of a result as objects (a repeated column name keeps its last value, as in node-postgres). */
export function rowsOf({ columns, values }: { columns: readonly string[]; values: readonly (readonly unknown[])[] }): Record<string, unknown>[] {
  const make = makerFor(columns);
  const rows: Record<string, unknown>[] = new Array(values.length);
  for (let r = 0; r < values.length; r++) rows[r] = make(values[r]!);
  return rows;
}

function makerFor(columns: readonly string[]): RowMaker {
  const key = columns.join('\0');
  let make = makers.get(key);
  if (make) return make;
  if (makers.size >= MAX_SHAPES) return (values) => keyByKey(columns, values);
  // Each name is a JSON string literal, which is also a JavaScript one: no column name can change the code. A
  // `__proto__` key would set the prototype; computed (`["__proto__"]`) it is a property like any other.
  const properties = columns.map((column, i) => `${column === '__proto__' ? '["__proto__"]' : JSON.stringify(column)}: values[${i}]`).join(', ');
  make = new Function('values', `return { ${properties} };`) as RowMaker;
  makers.set(key, make);
  return make;
}

function keyByKey(columns: readonly string[], values: readonly unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i++) {
    const column = columns[i]!;
    if (column === '__proto__') Object.defineProperty(row, column, { value: values[i], enumerable: true, writable: true, configurable: true });
    else row[column] = values[i];
  }
  return row;
}
