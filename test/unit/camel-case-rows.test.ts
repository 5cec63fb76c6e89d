import { CamelCasePlugin, type UnknownRow } from 'kysely';
import { expect, test } from 'vitest';
import { RowNames } from '../../src/platform/db/camel-case-rows.ts';

/** Kysely's plugin with its renaming in reach. */
class Plugin extends CamelCasePlugin {
  row(row: UnknownRow): UnknownRow {
    return this.mapRow(row);
  }
  name(column: string): string {
    return this.camelCase(column);
  }
}

test('the embedded engine names rows exactly as Kysely’s CamelCasePlugin does', () => {
  const plugin = new Plugin();
  const names = new RowNames();
  const columns = ['', 'a', '_a', 'a_', '_', '__', 'a__b', 'created_at', 'x1_y2', 'line_2_total', 'URL_path', 'é_ü', 'already_Camel', 'tenantId', 'a_b_c_d'];
  for (const column of columns) expect([column, names.name(column)]).toEqual([column, plugin.name(column)]);

  const row = {
    vendor_name: 'x',
    line_items: [{ unit_price: 1, tax_rate: null, nested_list: [{ deep_key: true }, 'x_y', 3] }, 'plain_text', null],
    raw_doc: { outer_key: { inner_key: [1, 2] }, empty_obj: {} },
    at_time: new Date(0),
    bytes: Buffer.from([1]),
    no_proto: Object.assign(Object.create(null), { null_proto_key: 1 }),
    nothing: null,
  };
  const ours = Object.fromEntries(Object.entries(row).map(([k, v]) => [names.name(k), v !== null && typeof v === 'object' ? names.value(v) : v]));
  expect(ours).toStrictEqual(plugin.row(row));
});
