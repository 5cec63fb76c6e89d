import { addDays, dayOfWeek } from '../../platform/lib/timezone.ts';
import { countRound, DAILY_SALES, EMPLOYEES, ITEMS, localInstant, money, type Rng, STORES } from './demo-data.ts';
import type { DemoServices } from './demo-seed.ts';

// The demo's point-of-sale sales and inventory (items and counts), drawn from the seed's random stream in order.

type DemoStore = { id: string; timezone: string };

/** Point-of-sale net sales of every closed business day (through yesterday) since the first schedule. */
export async function seedSales(
  scheduling: DemoServices['scheduling'],
  tenantId: string,
  stores: readonly DemoStore[],
  { firstWeek, endDate }: { firstWeek: string; endDate: string },
  rng: Rng,
): Promise<{ salesDays: number; netSales: number }> {
  const yesterday = addDays(endDate, -1);
  let salesDays = 0;
  let netSales = 0;
  for (const [s, store] of stores.entries()) {
    const rows = ['business_date,net_sales'];
    for (let date = firstWeek; date <= yesterday; date = addDays(date, 1)) {
      const amount = Math.round(DAILY_SALES[dayOfWeek(date)]! * STORES[s]!.volume * (1 + rng.around(0.12)) * 100) / 100;
      rows.push(`${date},"${money(amount)}"`);
    }
    const imported = await scheduling.importPosSales(tenantId, store.id, `${rows.join('\n')}\n`);
    salesDays += imported.days;
    netSales += imported.totalNetSales;
  }
  return { salesDays, netSales };
}

/** Inventory items with pack sizes and par levels, counted at every store on two dates. */
export async function seedInventory(
  inventory: DemoServices['inventory'],
  tenantId: string,
  stores: readonly DemoStore[],
  endDate: string,
  rng: Rng,
): Promise<{ items: unknown[]; inventoryCounts: number }> {
  const items = [];
  for (const spec of ITEMS) {
    const item = await inventory.createItem(tenantId, {
      name: spec.name,
      sku: spec.sku,
      category: spec.category,
      unit: spec.unit,
      defaultCost: spec.defaultCost,
      packSizes: spec.packSizes ?? [],
      parLevel: spec.parLevel,
      storeId: spec.store === undefined ? null : stores[spec.store]!.id,
    });
    items.push({ spec, id: item.id });
  }
  let inventoryCounts = 0;
  const countDates = [addDays(endDate, -22), addDays(endDate, -8)];
  for (const [s, store] of stores.entries()) {
    const manager = EMPLOYEES.find((e) => e.store === s && e.position === 'manager')!.name;
    for (const date of countDates) {
      // After close, 22:45 local time (a week or more ago: never in the future).
      const countedAt = localInstant(date, 22 * 60 + 45, store.timezone);
      for (const item of items) {
        if (item.spec.store !== undefined && item.spec.store !== s) continue;
        const onHand = item.spec.parLevel * (0.35 + rng.next() * 0.95);
        const pack = item.spec.packSizes?.at(-1);
        const inPacks = pack && onHand >= pack.quantity / 2 && rng.chance(0.4);
        const quantity = inPacks ? Math.max(0.5, Math.round((onHand / pack.quantity) * 2) / 2) : countRound(item.spec.unit, onHand);
        await inventory.recordCount(tenantId, {
          storeId: store.id,
          itemId: item.id,
          quantity,
          unit: inPacks ? pack.unit : null,
          countedAt,
          countedBy: manager,
          notes: quantity < item.spec.parLevel * 0.5 && !inPacks ? 'Below half of par: reorder' : null,
        });
        inventoryCounts++;
      }
    }
  }
  return { items, inventoryCounts };
}
