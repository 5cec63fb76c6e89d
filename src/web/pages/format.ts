// Formatting for the tenant pages (assets/dashboard.js and charts.js format the same way). Figures arrive rounded
// by the API (money to the cent, hours and percentages to 2 decimals) and are printed with every decimal they have:
// a page never rounds a second time, so a figure reads the same on every page, in its chart and in a CSV.

const DATE = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' });
const NUMBER = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const HOURS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** 'YYYY-MM-DD' → 'Nov 5, 2026'; '—' when missing. */
export function day(value: string | null | undefined): string {
  if (!value) return '—';
  const d = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? value : DATE.format(d);
}

const SHORT = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' });
const WEEKDAY = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short' });
const utc = (value: string) => new Date(`${value.slice(0, 10)}T00:00:00Z`);

/** A span of days, short: 'Nov 1 – 7', 'Nov 29 – Dec 5', one day 'Nov 3'. */
export function days(start: string, end: string): string {
  if (start === end) return SHORT.format(utc(start));
  const [a, b] = [SHORT.format(utc(start)), SHORT.format(utc(end))];
  return a.split(' ')[0] === b.split(' ')[0] ? `${a} – ${b.split(' ')[1]}` : `${a} – ${b}`;
}

/** 'Sun 22': a day of a week. */
export const weekday = (value: string) => `${WEEKDAY.format(utc(value))} ${utc(value).getUTCDate()}`;

/** An instant as its UTC day. */
export const dayOf = (value: string | null | undefined) => day(value ? new Date(value).toISOString() : null);

/** An amount in its currency ($1,234.50), or plain when the currency is unknown. */
export function money(value: number | null | undefined, currency?: string | null): string {
  if (value === null || value === undefined) return '—';
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency || 'USD' }).format(value);
  } catch {
    return NUMBER.format(value);
  }
}

export const hours = (value: number | null | undefined) => (value === null || value === undefined ? '—' : HOURS.format(value));
export const percent = (value: number | null | undefined) => (value === null || value === undefined ? '—' : `${HOURS.format(value)}%`);

/** 'nonalcoholic_beverage_cost' → 'Nonalcoholic beverage cost'. */
export function label(code: string): string {
  const text = code.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Today and the Sunday–Saturday week around it, in UTC. */
export function weekOf(now: Date): { start: string; end: string } {
  const sunday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - now.getUTCDay()));
  const saturday = new Date(sunday.getTime() + 6 * 86_400_000);
  return { start: sunday.toISOString().slice(0, 10), end: saturday.toISOString().slice(0, 10) };
}

/** A store's name, or the partner's id for it when it has none. */
export const storeName = (s: { name: string | null; externalStoreId: string }) => s.name ?? s.externalStoreId;
