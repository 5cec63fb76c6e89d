import { esc } from '../html.ts';
import { storeName, weekOf } from './format.ts';
import { type PageContext, param } from './page.ts';

// The period and store pickers of the P&L and reports pages: ?period=this_week|this_month|custom&from=&to=&store=.

export type Period = 'this_week' | 'this_month' | 'custom';
const PERIODS: ReadonlyArray<readonly [Period, string]> = [
  ['this_week', 'This week'],
  ['this_month', 'This month'],
  ['custom', 'Custom'],
];

export interface PeriodChoice {
  period: Period;
  from: string | null;
  to: string | null;
  /** The store asked for (a tenant-wide user's choice, or a store-scoped user's own store). */
  storeId: string | null;
}

/** What the URL asks for; a store-scoped user always gets their store. */
export function periodOf(ctx: PageContext, fallback: Period = 'this_month'): PeriodChoice {
  const from = param(ctx.query, 'from') ?? null;
  const to = param(ctx.query, 'to') ?? null;
  const asked = PERIODS.find(([p]) => p === param(ctx.query, 'period'))?.[0];
  const period = asked ?? (from || to ? 'custom' : fallback);
  return { period, from: period === 'custom' ? from : null, to: period === 'custom' ? to : null, storeId: ctx.storeId ?? param(ctx.query, 'store') ?? null };
}

type Store = { id: string; name: string | null; externalStoreId: string };

/**
 * Links for this week / this month, a custom range form, and (for a tenant-wide user) a store picker; `shown` is the
 * range the API answered with. Plain GET forms: they work without script.
 */
export function periodPicker(path: string, choice: PeriodChoice, shown: { startDate: string; endDate: string }, stores: Store[] | null): string {
  const store = choice.storeId ? `&store=${encodeURIComponent(choice.storeId)}` : '';
  const links = PERIODS.filter(([p]) => p !== 'custom')
    .map(([p, text]) => `<a href="${path}?period=${p}${store}"${choice.period === p ? ' aria-current="true"' : ''}>${esc(text)}</a>`)
    .join('');
  const picker = stores
    ? `<label>Store <select name="store"><option value="">All stores</option>${stores
        .map((s) => `<option value="${esc(s.id)}"${s.id === choice.storeId ? ' selected' : ''}>${esc(storeName(s))}</option>`)
        .join('')}</select></label>`
    : '';
  return `<div class="periods"><nav class="segmented" aria-label="Period">${links}</nav>
<form class="period" method="get" action="${path}"><input type="hidden" name="period" value="custom">
<label>From <input type="date" name="from" value="${esc(shown.startDate)}" required></label>
<label>To <input type="date" name="to" value="${esc(shown.endDate)}" required></label>
${picker}<button type="submit">Show</button></form></div>`;
}

/**
 * The days of a choice for the reports, whose operations take days (laborReport, spendReport): this week and this
 * month run to today (UTC), as profitAndLoss's periods do; custom days go to the API as typed (it checks them).
 */
export function periodDays(c: PeriodChoice, now: Date): { start: string | null; end: string | null } {
  const today = now.toISOString().slice(0, 10);
  if (c.period === 'this_week') return { start: weekOf(now).start, end: today };
  if (c.period === 'this_month') return { start: `${today.slice(0, 8)}01`, end: today };
  return { start: c.from, end: c.to };
}
