import type { CostCategory } from '../../extraction/categories.ts';
import { InvalidInput } from '../../platform/errors.ts';
import { addDays, dayOfWeek } from '../../platform/lib/timezone.ts';
import { reportRange } from '../scheduling/labor-report.ts';
import type { SchedulingService } from '../scheduling/scheduling.service.ts';
import type { SpendService } from '../spend/spend.service.ts';
import type { TenantsService } from '../tenants/tenants.service.ts';
import { Bucket, centsOfMicro, dollars, percent, twoDecimals } from './pnl.model.ts';

export type ProfitAndLossPeriod = 'this_week' | 'this_month' | 'custom';

type Figures = ReturnType<Bucket['figures']>;
type Category = { category: CostCategory; amount: number; percentOfSales: number | null };

export interface ProfitAndLoss extends Figures {
  period: ProfitAndLossPeriod;
  startDate: string;
  endDate: string;
  storeId: string | null;
  costOfGoodsByCategory: Category[];
  laborHours: number;
  overtimeHours: number;
  overtimeCost: number;
  otherExpenses: number;
  otherExpensesPercent: number | null;
  otherExpensesByCategory: Category[];
  operatingProfit: number;
  operatingProfitPercent: number | null;
  invoiceCount: number;
  weekly: Array<Figures & { weekStart: string; weekEnd: string; startDate: string; endDate: string; partial: boolean }>;
  byStore: Array<Figures & { storeId: string | null }>;
}

export interface ProfitAndLossInput {
  storeId?: string | null;
  period?: ProfitAndLossPeriod | null;
  startDate?: string | null;
  endDate?: string | null;
}

/** The days of a period: this week and this month run to today (UTC); custom needs both days. */
export function periodRange(input: ProfitAndLossInput, now: Date): { period: ProfitAndLossPeriod; startDate: string; endDate: string } {
  const custom = input.startDate != null || input.endDate != null;
  const period = input.period ?? (custom ? 'custom' : 'this_month');
  const today = now.toISOString().slice(0, 10);
  if (period !== 'custom') {
    if (custom) throw InvalidInput.field(input.startDate != null ? 'startDate' : 'endDate', `is only for period custom (got period ${period})`);
    const startDate = period === 'this_week' ? addDays(today, -dayOfWeek(today)) : `${today.slice(0, 8)}01`;
    return { period, startDate, endDate: today };
  }
  for (const field of ['startDate', 'endDate'] as const) {
    if (input[field] == null) throw InvalidInput.field(field, 'is required with period custom');
  }
  return { period, ...reportRange(input, now) };
}

/**
 * Profit and loss per tenant or store: sales (point of sale), cost of goods and other expenses (invoice line items by
 * invoice date, per cost category) and labor (punches with overtime), with prime cost and every figure as a share
 * of sales, per week and per store. Reads through the scheduling and spend services: one way to count each.
 */
export function createProfitAndLossService(deps: { tenants: TenantsService; scheduling: SchedulingService; spend: SpendService; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return {
    async report(tenantId: string, input: ProfitAndLossInput): Promise<ProfitAndLoss> {
      const storeId = input.storeId ?? null;
      if (storeId) await deps.tenants.requireStore(tenantId, storeId);
      const { period, startDate, endDate } = periodRange(input, now());
      const range = { storeId, startDate, endDate };
      const { labor, sales } = await deps.scheduling.laborAndSalesByStoreDay(tenantId, range);
      const costs = await deps.spend.costsByStoreDay(tenantId, range);

      const total = new Bucket();
      const weeks = new Map<string, Bucket>();
      const stores = new Map<string | null, Bucket>();
      const firstWeek = addDays(startDate, -dayOfWeek(startDate));
      for (let w = firstWeek; w <= endDate; w = addDays(w, 7)) weeks.set(w, new Bucket());
      if (storeId) stores.set(storeId, new Bucket());
      const bucketsOf = (store: string | null, day: string) => {
        if (!stores.has(store)) stores.set(store, new Bucket());
        return [total, weeks.get(addDays(day, -dayOfWeek(day)))!, stores.get(store)!];
      };

      for (const s of sales) for (const b of bucketsOf(s.storeId, s.day)) b.salesCents += centsOfMicro(s.netSales);
      for (const c of costs.rows) for (const b of bucketsOf(c.storeId, c.day)) b.addCost(c.category, c.cents);
      for (const l of labor) {
        for (const b of bucketsOf(l.storeId, l.day)) {
          b.laborCents += centsOfMicro(l.laborCost);
          b.overtimeCents += centsOfMicro(l.overtimeCost);
          b.laborMicroHours += l.hours;
          b.overtimeMicroHours += l.overtimeHours;
        }
      }

      const figures = total.figures();
      const operating = total.salesCents - total.cogsCents - total.laborCents - total.otherCents;
      return {
        period,
        startDate,
        endDate,
        storeId,
        ...figures,
        costOfGoodsByCategory: total.categories(true),
        laborHours: twoDecimals(total.laborMicroHours),
        overtimeHours: twoDecimals(total.overtimeMicroHours),
        overtimeCost: dollars(total.overtimeCents),
        otherExpenses: dollars(total.otherCents),
        otherExpensesPercent: percent(total.otherCents, total.salesCents),
        otherExpensesByCategory: total.categories(false),
        operatingProfit: dollars(operating),
        operatingProfitPercent: percent(operating, total.salesCents),
        invoiceCount: costs.invoiceCount,
        weekly: [...weeks].map(([weekStart, b]) => {
          const weekEnd = addDays(weekStart, 6);
          const from = weekStart < startDate ? startDate : weekStart;
          const to = weekEnd > endDate ? endDate : weekEnd;
          return { weekStart, weekEnd, startDate: from, endDate: to, partial: from !== weekStart || to !== weekEnd, ...b.figures() };
        }),
        byStore: [...stores]
          .filter(([id, b]) => id === storeId || !b.empty)
          .map(([id, b]) => ({ storeId: id, ...b.figures() }))
          .sort((a, b) => b.netSales - a.netSales || (a.storeId ?? '~').localeCompare(b.storeId ?? '~')),
      };
    },
  };
}
export type ProfitAndLossService = ReturnType<typeof createProfitAndLossService>;
