import { parse } from 'csv-parse/sync';
import { InvalidInput } from '../../platform/errors.ts';

export interface DailySales {
  businessDate: string;
  netSales: number;
}

const DATE_COLUMNS = ['business_date', 'businessdate', 'date', 'day'];
const SALES_COLUMNS = ['net_sales', 'netsales', 'net sales', 'net', 'sales'];
const MAX_ROWS = 10_000;
const MAX_ERRORS_SHOWN = 5;

/**
 * A point-of-sale export: a header row naming a date column (business_date, date) and a net sales column
 * (net_sales, net sales), one row per business day. Dates are YYYY-MM-DD or M/D/YYYY; amounts may carry a
 * currency sign, thousands separators or parentheses for a negative day. Every bad row is reported (400).
 */
export function parsePosSalesCsv(text: string): DailySales[] {
  let records: string[][];
  try {
    records = parse(text.replace(/^\uFEFF/, ''), { skip_empty_lines: true, trim: true, relax_column_count: true });
  } catch (err) {
    throw InvalidInput.field('file', `is not valid CSV: ${(err as Error).message}`);
  }
  const [header, ...rows] = records;
  if (!header) throw InvalidInput.field('file', 'is empty: expected a header row and one row per business day');
  const names = header.map((h) =>
    h
      .toLowerCase()
      .replace(/[\s-]+/g, ' ')
      .trim(),
  );
  const dateAt = names.findIndex((n) => DATE_COLUMNS.includes(n.replace(/ /g, '_')) || DATE_COLUMNS.includes(n));
  const salesAt = names.findIndex((n) => SALES_COLUMNS.includes(n) || SALES_COLUMNS.includes(n.replace(/ /g, '_')));
  if (dateAt < 0 || salesAt < 0) {
    throw InvalidInput.field('file', `header must name a date column (business_date or date) and a net_sales column (got: ${header.join(', ')})`);
  }
  if (rows.length === 0) throw InvalidInput.field('file', 'has a header but no rows');
  if (rows.length > MAX_ROWS) throw InvalidInput.field('file', `has ${rows.length} rows; at most ${MAX_ROWS} per import`);

  const byDate = new Map<string, number>();
  const errors: string[] = [];
  rows.forEach((row, i) => {
    const line = i + 2;
    const date = businessDate(row[dateAt] ?? '');
    const amount = netSales(row[salesAt] ?? '');
    if (!date) errors.push(`row ${line}: date "${row[dateAt] ?? ''}" is not YYYY-MM-DD or M/D/YYYY`);
    else if (amount === undefined) errors.push(`row ${line}: net sales "${row[salesAt] ?? ''}" is not an amount`);
    else if (byDate.has(date)) errors.push(`row ${line}: ${date} appears twice`);
    else byDate.set(date, amount);
  });
  if (errors.length) {
    const more = errors.length > MAX_ERRORS_SHOWN ? `; and ${errors.length - MAX_ERRORS_SHOWN} more` : '';
    throw InvalidInput.field('file', `has ${errors.length} bad row(s): ${errors.slice(0, MAX_ERRORS_SHOWN).join('; ')}${more}`);
  }
  return [...byDate].map(([businessDate, netSales]) => ({ businessDate, netSales })).sort((a, b) => a.businessDate.localeCompare(b.businessDate));
}

function businessDate(raw: string): string | undefined {
  let y: number, m: number, d: number;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(raw);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(raw);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (us) [y, m, d] = [Number(us[3]), Number(us[1]), Number(us[2])];
  else return undefined;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return undefined;
  return date.toISOString().slice(0, 10);
}

function netSales(raw: string): number | undefined {
  const negative = /^\(.*\)$/.test(raw) || raw.startsWith('-');
  const digits = raw.replace(/[()\s$€£-]/g, '').replace(/,(?=\d{3}(\D|$))/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(digits)) return undefined;
  const value = Number(digits);
  if (value > 100_000_000) return undefined;
  return negative ? -value : value;
}
