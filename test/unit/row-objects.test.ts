import { describe, expect, test } from 'vitest';
import { rowsOf } from '../../src/platform/db/row-objects.ts';

describe('rowsOf', () => {
  test('each row is an object of the columns in order, with its values', () => {
    const rows = rowsOf({
      columns: ['id', 'createdAt', 'doc'],
      values: [
        [1, new Date(0), { a: 1 }],
        [2, null, undefined],
      ],
    });
    expect(rows).toEqual([
      { id: 1, createdAt: new Date(0), doc: { a: 1 } },
      { id: 2, createdAt: null, doc: undefined },
    ]);
    expect(Object.keys(rows[1]!)).toEqual(['id', 'createdAt', 'doc']);
    expect(rowsOf({ columns: ['id'], values: [] })).toEqual([]);
    expect(rowsOf({ columns: [], values: [[], []] })).toEqual([{}, {}]);
  });

  test('a repeated column keeps its last value, in its first place', () => {
    const [row] = rowsOf({ columns: ['a', 'b', 'a'], values: [[1, 2, 3]] });
    expect(row).toEqual({ a: 3, b: 2 });
    expect(Object.keys(row!)).toEqual(['a', 'b']);
  });

  test('any column name is a plain property: quotes, backslashes, line breaks, code, __proto__', () => {
    const columns = ['"', "'", '\\', 'a\nb', '\u2028', '${x}', '}; throw new Error("no"); ({', '__proto__', 'constructor'];
    const values = columns.map((_, i) => i);
    const [row] = rowsOf({ columns, values: [values] });
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.keys(row!)).toEqual(columns);
    for (const [i, column] of columns.entries()) expect(Object.getOwnPropertyDescriptor(row, column)?.value).toBe(i);
  });

  test('rows of many different shapes (past the remembered ones) are built the same', async () => {
    // A module instance of its own (another id for vitest), so that filling its memory of shapes leaves the one
    // other test files of this worker share (the unit group shares one module graph) untouched.
    const instance = '../../src/platform/db/row-objects.ts?many-shapes';
    const fresh = (await import(instance)) as typeof import('../../src/platform/db/row-objects.ts');
    expect(fresh.rowsOf).not.toBe(rowsOf);
    for (let i = 0; i < 2100; i++) {
      const columns = [`c${i}`, 'x'];
      expect(fresh.rowsOf({ columns, values: [[i, 'v']] })).toEqual([{ [`c${i}`]: i, x: 'v' }]);
    }
    const [row] = fresh.rowsOf({ columns: ['__proto__', 'y'], values: [[{ polluted: true }, 1]] });
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toEqual({ polluted: true });
  });
});
