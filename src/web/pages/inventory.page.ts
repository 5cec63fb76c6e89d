import { esc } from '../html.ts';
import { dayOf, hours, label, money, storeName } from './format.ts';
import { empty, figures, table } from './layout.ts';
import type { PageHandler } from './page.ts';

const OVERVIEW = `query InventoryOverview($storeId: UUID) {
  stores { id name externalStoreId }
  inventorySummary(storeId: $storeId) { itemCount lastCountedAt totalInventoryValue }
}`;

const STORE = `query StoreInventory($storeId: UUID!) {
  inventorySummary(storeId: $storeId) { totalInventoryValue }
  inventoryItems(storeId: $storeId) { id name sku category unit defaultCost parLevel }
  inventoryCounts(storeId: $storeId) { itemId baseQuantity value countedAt countedBy }
}`;

interface Store {
  id: string;
  name: string | null;
  externalStoreId: string;
}
interface Item {
  id: string;
  name: string;
  sku: string | null;
  category: string;
  unit: string;
  defaultCost: number | null;
  parLevel: number | null;
}
interface Count {
  itemId: string;
  baseQuantity: number;
  value: number | null;
  countedAt: string;
  countedBy: string | null;
}

/** Items stocked at each store in scope with their latest count and its value. */
export const inventoryPage: PageHandler = async (ctx) => {
  const overview = await ctx.gql<{ stores: Store[]; inventorySummary: { itemCount: number; lastCountedAt: string | null; totalInventoryValue: number } }>(
    OVERVIEW,
    {
      storeId: ctx.storeId,
    },
  );
  const stores = overview.stores.filter((s) => !ctx.storeId || s.id === ctx.storeId);
  const perStore = await Promise.all(
    stores.map((s) =>
      ctx.gql<{ inventorySummary: { totalInventoryValue: number }; inventoryItems: Item[]; inventoryCounts: Count[] }>(STORE, { storeId: s.id }),
    ),
  );
  const sections = stores.map((store, i) => {
    const { inventorySummary, inventoryItems: items, inventoryCounts: counts } = perStore[i]!;
    const latest = new Map(counts.map((c) => [c.itemId, c]));
    // The API's figure, as on the card above: the rows' values (each to the cent) added up.
    const value = inventorySummary.totalInventoryValue;
    const rows = items.map((item) => {
      const count = latest.get(item.id);
      const low = count && item.parLevel !== null && count.baseQuantity < item.parLevel;
      return [
        esc(item.name) + (item.sku ? ` <span class="note">${esc(item.sku)}</span>` : ''),
        esc(label(item.category)),
        `<span class="num">${esc(item.parLevel === null ? '—' : `${hours(item.parLevel)} ${item.unit}`)}</span>`,
        `<span class="num${low ? ' low' : ''}">${esc(count ? `${hours(count.baseQuantity)} ${item.unit}` : 'not counted')}</span>`,
        `<span class="num">${esc(money(count?.value ?? null))}</span>`,
        esc(count ? `${dayOf(count.countedAt)}${count.countedBy ? ` · ${count.countedBy}` : ''}` : '—'),
      ];
    });
    return `<section><h2>${esc(storeName(store))}</h2><p class="note">Value of the latest counts: ${esc(money(value))}</p>
${rows.length ? table(['Item', 'Category', 'Par level', 'Latest count', 'Value', 'Counted'], rows) : empty('No items stocked at this store yet. Add items and record counts from your inventory tool; they show here with their value.')}</section>`;
  });
  const summary = overview.inventorySummary;
  return {
    title: 'Inventory',
    body: `${figures([
      ['Items', esc(String(summary.itemCount))],
      ['Inventory value', esc(money(summary.totalInventoryValue))],
      ['Last counted', esc(summary.lastCountedAt ? dayOf(summary.lastCountedAt) : '—')],
    ])}
${sections.join('\n') || empty('No stores yet. Your administrator adds stores; their stock shows here.')}`,
  };
};
