import { CamelCasePlugin, type PluginTransformResultArgs, type QueryResult, type UnknownRow } from 'kysely';

// Kysely's CamelCasePlugin renames every result row's keys (and, recursively, those of plain objects in json
// columns) on the event loop: ~4% of a 35-item read's main-thread time. On the embedded database the rows are
// built by the database's own thread, so they are built there with the plugin's names, once per column, and the
// Kysely instance keeps only the plugin's query half (identifiers to snake_case). The names are the plugin's own.

/** The plugin's renaming, applied where the rows are read. */
export class RowNames extends CamelCasePlugin {
  readonly #names = new Map<string, string>();

  /** A column's key in a row. */
  name(column: string): string {
    let name = this.#names.get(column);
    if (name === undefined) this.#names.set(column, (name = this.camelCase(column)));
    return name;
  }

  /** A value as the plugin leaves it: a plain object (json), or one inside an array, has its keys renamed too. */
  value(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => (isPlainObject(item) ? this.mapRow(item) : item));
    return isPlainObject(value) ? this.mapRow(value) : value;
  }
}

/** CamelCasePlugin for queries only: the engine returns rows already renamed (RowNames). */
export class CamelCaseQueries extends CamelCasePlugin {
  override async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/** Kysely's test for what its plugin recurses into: an object of class Object (or none). */
function isPlainObject(value: unknown): value is UnknownRow {
  if (typeof value !== 'object' || value === null || Object.prototype.toString.call(value) !== '[object Object]') return false;
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto === null || Object.getPrototypeOf(proto) === null;
}
