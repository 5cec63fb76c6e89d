// CSV downloads of the reports (RFC 4180: CRLF lines, fields quoted when needed). Text that a spreadsheet would run
// as a formula (=, +, -, @, tab, CR at the start) is prefixed with an apostrophe: vendor and employee names come
// from documents and partners, and must stay text. Numbers are written as the API returned them.

const FORMULA = /^[=+\-@\t\r]/;

function field(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | null | undefined>>): string {
  return [header, ...rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}
