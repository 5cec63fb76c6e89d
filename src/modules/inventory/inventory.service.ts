import type { Kysely } from 'kysely';
import {
  findItems,
  insertCount,
  insertItem,
  type InventoryCountRow,
  type InventoryItemRow,
  inventorySummary,
  latestCountsAtStore,
  listItems,
  updateItem,
} from './inventory.queries.ts';
import type { DB, PackSize } from '../../platform/db/types.ts';
import { Conflict, InvalidInput, NotFound, translateDbError } from '../../platform/errors.ts';
import { COST_CATEGORIES } from '../../extraction/categories.ts';
import { conversionFactor, normalizeUnit, validatePackSizes } from './units.ts';
import { num } from '../invoices/invoice.ts';
import { optionalText } from '../../platform/lib/text.ts';
import type { TenantsService } from '../tenants/tenants.service.ts';

export interface InventoryItem {
  id: string;
  tenantId: string;
  /** null: stocked at every store of the tenant. */
  storeId: string | null;
  name: string;
  sku: string | null;
  category: string;
  unit: string;
  /** Cost of one `unit`. */
  defaultCost: number | null;
  packSizes: PackSize[];
  parLevel: number | null;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface InventoryCount {
  id: string;
  tenantId: string;
  storeId: string;
  itemId: string;
  /** As counted, in `unit`. */
  quantity: number;
  unit: string;
  /** The same amount in the item's unit. */
  baseQuantity: number;
  countedAt: Date;
  countedBy: string | null;
  notes: string | null;
  createdAt: Date;
}

export interface ItemInput {
  storeId?: string | null;
  name?: string | null;
  sku?: string | null;
  category?: string | null;
  unit?: string | null;
  defaultCost?: number | null;
  packSizes?: PackSize[] | null;
  parLevel?: number | null;
  active?: boolean | null;
}

export interface CountInput {
  storeId: string;
  itemId: string;
  quantity: number;
  unit?: string | null;
  notes?: string | null;
  countedBy?: string | null;
  countedAt?: Date | null;
}

const MAX_NAME = 200;
const MAX_SKU = 64;
const MAX_NOTES = 2000;
const MAX_QUANTITY = 1_000_000_000;
/** A count's quantity is stored as numeric(14, 4). */
const QUANTITY_DECIMALS = 4;
const roundTo = (value: number, decimals: number) => Number(value.toFixed(decimals));
/** A count may be dated a little ahead (clock skew of a handheld), not into the future. */
const FUTURE_SKEW_MS = 5 * 60_000;

export function createInventoryService(db: Kysely<DB>, deps: { tenants: TenantsService; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  async function ownItem(tenantId: string, id: string): Promise<InventoryItemRow> {
    const [row] = await findItems(db, [tenantId], [id]);
    if (!row) throw new NotFound('inventory item');
    return row;
  }

  return {
    /** Active items (or all) of a tenant, or those stocked at one store. */
    async items(tenantId: string, filter: { storeId?: string | null; includeInactive?: boolean | null }): Promise<InventoryItem[]> {
      if (filter.storeId) await deps.tenants.requireStore(tenantId, filter.storeId);
      const rows = await listItems(db, tenantId, { storeId: filter.storeId, includeInactive: filter.includeInactive ?? false });
      return rows.map(toItem);
    },

    /** Items by id among the given tenants, in the order of `ids` (a DataLoader batch function). */
    async itemsByIds(tenantIds: readonly string[], ids: readonly string[]): Promise<(InventoryItem | null)[]> {
      const rows = await findItems(db, tenantIds, ids);
      return ids.map((id) => {
        const row = rows.find((r) => r.id === id);
        return row ? toItem(row) : null;
      });
    },

    async createItem(tenantId: string, input: ItemInput): Promise<InventoryItem> {
      if (input.storeId) await deps.tenants.requireStore(tenantId, input.storeId);
      const fields = itemFields(input, undefined);
      try {
        return toItem(await insertItem(db, { tenantId, storeId: input.storeId ?? null, ...fields, packSizes: JSON.stringify(fields.packSizes) }));
      } catch (err) {
        throw translateDbError(err, { inventory_items__tenant_id_sku: new Conflict(`an item with sku "${fields.sku}" already exists`) });
      }
    },

    /** Changes the given fields; a null clears an optional one. Moving an item to a store checks the store. */
    async updateItem(tenantIds: readonly string[], id: string, input: ItemInput): Promise<InventoryItem> {
      const [current] = await findItems(db, tenantIds, [id]);
      if (!current) throw new NotFound('inventory item');
      if (input.storeId) await deps.tenants.requireStore(current.tenantId, input.storeId);
      const fields = itemFields(input, current);
      try {
        return toItem(
          await updateItem(db, current.tenantId, id, {
            ...fields,
            ...(input.storeId !== undefined ? { storeId: input.storeId } : {}),
            packSizes: JSON.stringify(fields.packSizes),
          }),
        );
      } catch (err) {
        throw translateDbError(err, { inventory_items__tenant_id_sku: new Conflict(`an item with sku "${fields.sku}" already exists`) });
      }
    },

    /**
     * Records a count at a store. `unit` (default: the item's) is converted to the item's unit through its pack
     * sizes or a fixed factor; a unit that does not convert is 400 listing the units that do. The quantity is kept to
     * QUANTITY_DECIMALS places (its column's scale) and the converted amount computed from what is kept, so the two
     * always agree. Resolves the count with the item it counts (read to check it, so callers need not read it again).
     */
    async recordCount(tenantId: string, input: CountInput): Promise<{ count: InventoryCount; item: InventoryItem }> {
      const store = await deps.tenants.requireStore(tenantId, input.storeId);
      const item = toItem(await ownItem(tenantId, input.itemId));
      if (item.storeId && item.storeId !== store.id) throw InvalidInput.field('itemId', 'is an item of another store');
      if (!item.active) throw new Conflict('inventory item is inactive; reactivate it before counting it');
      if (!(Number.isFinite(input.quantity) && input.quantity >= 0 && input.quantity <= MAX_QUANTITY)) {
        throw InvalidInput.field('quantity', `must be a number from 0 to ${MAX_QUANTITY} (got ${input.quantity})`);
      }
      const quantity = roundTo(input.quantity, QUANTITY_DECIMALS);
      const unit = input.unit == null ? item.unit : normalizeUnit(input.unit);
      const factor = conversionFactor(unit, item);
      if (input.countedAt && input.countedAt.getTime() > now().getTime() + FUTURE_SKEW_MS) {
        throw InvalidInput.field('countedAt', 'must not be in the future');
      }
      const row = await insertCount(db, {
        tenantId,
        storeId: store.id,
        itemId: item.id,
        quantity,
        unit,
        baseQuantity: quantity * factor,
        countedAt: input.countedAt ?? now(),
        countedBy: optionalText(input.countedBy, 'countedBy', MAX_NAME),
        notes: optionalText(input.notes, 'notes', MAX_NOTES),
      });
      return { count: toCount(row), item };
    },

    /** The latest count of every item at the store. */
    async latestCounts(tenantId: string, storeId: string): Promise<InventoryCount[]> {
      await deps.tenants.requireStore(tenantId, storeId);
      return (await latestCountsAtStore(db, storeId)).map(toCount);
    },

    /** Active items, last count and value of the latest counts, at one store or (storeId omitted) all of them. */
    async summary(tenantId: string, storeId?: string | null) {
      if (storeId) await deps.tenants.requireStore(tenantId, storeId);
      return inventorySummary(db, tenantId, storeId ?? null);
    },
  };
}
export type InventoryService = ReturnType<typeof createInventoryService>;

/** Validated columns of a create (current undefined: name, category and unit are required) or an update. */
function itemFields(input: ItemInput, current: InventoryItemRow | undefined) {
  const name = input.name == null ? current?.name : input.name.trim();
  if (name === undefined) throw InvalidInput.field('name', 'is required');
  if (!name || name.length > MAX_NAME) throw InvalidInput.field('name', `must be 1 to ${MAX_NAME} characters`);
  const category = input.category ?? current?.category;
  if (category === undefined) throw InvalidInput.field('category', 'is required');
  if (!(COST_CATEGORIES as readonly string[]).includes(category)) {
    throw InvalidInput.field('category', `must be one of ${COST_CATEGORIES.join(', ')}`);
  }
  const unit = input.unit == null ? current?.unit : normalizeUnit(input.unit);
  if (unit === undefined) throw InvalidInput.field('unit', 'is required');
  const packSizes = validatePackSizes(unit, input.packSizes === undefined ? (current?.packSizes ?? []) : (input.packSizes ?? []));
  const sku = input.sku === undefined ? (current?.sku ?? null) : optionalText(input.sku, 'sku', MAX_SKU);
  return {
    name,
    category,
    unit,
    sku,
    packSizes,
    defaultCost: input.defaultCost === undefined ? num(current?.defaultCost ?? null) : amount(input.defaultCost, 'defaultCost'),
    parLevel: input.parLevel === undefined ? num(current?.parLevel ?? null) : amount(input.parLevel, 'parLevel'),
    active: input.active ?? current?.active ?? true,
  };
}

function amount(value: number | null, field: string): number | null {
  if (value === null) return null;
  if (!(Number.isFinite(value) && value >= 0 && value <= MAX_QUANTITY)) throw InvalidInput.field(field, `must be a number from 0 to ${MAX_QUANTITY}`);
  return value;
}

function toItem(r: InventoryItemRow): InventoryItem {
  return { ...r, defaultCost: num(r.defaultCost), parLevel: num(r.parLevel) };
}

function toCount(r: InventoryCountRow): InventoryCount {
  return { ...r, quantity: Number(r.quantity), baseQuantity: Number(r.baseQuantity) };
}
