import type { CostCategory } from '../../extraction/categories.ts';

// The P&L's arithmetic, in whole cents: every amount arrives rounded to the cent where it arose (a line item, a day's
// sales, a punch's pay), so every sum here is exact and a total is always the sum of its parts; percentages are
// rounded once, to 2 decimals, from the cents.

/**
 * Cost of goods: the Uniform System of Accounts for Restaurants' cost of sales — food, beverages (non-alcoholic,
 * beer, wine, liquor) and merchandise sold. Paper and packaging, supplies and the rest are operating expenses.
 */
export const COST_OF_GOODS: ReadonlySet<CostCategory> = new Set([
  'food_cost',
  'nonalcoholic_beverage_cost',
  'beer_cost',
  'wine_cost',
  'liquor_cost',
  'retail_merchandise_cost',
]);

/** What the P&L adds up for one span (the whole period, a week, a store). */
export class Bucket {
  salesCents = 0;
  laborCents = 0;
  overtimeCents = 0;
  /** Millionths of an hour. */
  laborMicroHours = 0;
  overtimeMicroHours = 0;
  readonly costs = new Map<CostCategory, number>();

  addCost(category: CostCategory, cents: number): void {
    this.costs.set(category, (this.costs.get(category) ?? 0) + cents);
  }

  get cogsCents(): number {
    return sumOf(this.costs, (c) => COST_OF_GOODS.has(c));
  }

  get otherCents(): number {
    return sumOf(this.costs, (c) => !COST_OF_GOODS.has(c));
  }

  /** The figures every span reports. */
  figures() {
    const cogs = this.cogsCents;
    const prime = cogs + this.laborCents;
    return {
      netSales: dollars(this.salesCents),
      costOfGoods: dollars(cogs),
      costOfGoodsPercent: percent(cogs, this.salesCents),
      laborCost: dollars(this.laborCents),
      laborPercent: percent(this.laborCents, this.salesCents),
      primeCost: dollars(prime),
      primeCostPercent: percent(prime, this.salesCents),
    };
  }

  /** The categories on one side (cost of goods or not) with an amount, biggest first. */
  categories(costOfGoods: boolean): Array<{ category: CostCategory; amount: number; percentOfSales: number | null }> {
    return [...this.costs]
      .filter(([c, cents]) => COST_OF_GOODS.has(c) === costOfGoods && cents !== 0)
      .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
      .map(([category, cents]) => ({ category, amount: dollars(cents), percentOfSales: percent(cents, this.salesCents) }));
  }

  get empty(): boolean {
    return this.salesCents === 0 && this.laborCents === 0 && this.costs.size === 0;
  }
}

function sumOf(costs: ReadonlyMap<CostCategory, number>, which: (c: CostCategory) => boolean): number {
  let total = 0;
  for (const [c, cents] of costs) if (which(c)) total += cents;
  return total;
}

export const dollars = (cents: number) => cents / 100 + 0;
/** part / whole as a percentage to 2 decimals; null without a whole (no sales). */
export const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 100 + 0 : null);
/** Micro-units (millionths) that hold whole cents → cents. */
export const centsOfMicro = (micro: number) => Math.round(micro / 1e4);
/** Micro-units → 2 decimals (hours). */
export const twoDecimals = (micro: number) => Math.round(micro / 1e4) / 100 + 0;
