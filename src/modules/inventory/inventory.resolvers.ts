import { type AccessRule, requireAccess, scopedStore, visibleStore } from '../../platform/auth/access.ts';
import type { RequestContext } from '../../app/context.ts';
import { NotFound } from '../../platform/errors.ts';
import type { CountInput, InventoryCount, ItemInput } from './inventory.service.ts';
import { loaders } from '../../app/loaders.ts';
import { tenantFor, tenantsFor } from '../tenants/tenant-access.ts';
import type { Resolvers } from '../../app/generated/resolvers.ts';

const READ: AccessRule = { scope: 'inventory:read' };
const WRITE: AccessRule = { scope: 'inventory:write' };

type TenantArgs = { tenantId?: string | null };

async function countItem(count: InventoryCount, ctx: RequestContext) {
  const item = await loaders(ctx).inventoryItem.load(count.itemId);
  if (!item) throw new NotFound('inventory item');
  return item;
}

export const inventoryResolvers = {
  Query: {
    inventoryItems: async (_: unknown, args: TenantArgs & { storeId?: string | null; includeInactive?: boolean | null }, ctx: RequestContext) =>
      ctx.services.inventory.items(await tenantFor(ctx, args, READ), { ...args, storeId: scopedStore(ctx.principal, args.storeId) }),
    inventoryCounts: async (_: unknown, args: TenantArgs & { storeId: string }, ctx: RequestContext) =>
      ctx.services.inventory.latestCounts(await tenantFor(ctx, args, READ), scopedStore(ctx.principal, args.storeId)!),
    inventorySummary: async (_: unknown, args: TenantArgs & { storeId?: string | null }, ctx: RequestContext) =>
      ctx.services.inventory.summary(await tenantFor(ctx, args, READ), scopedStore(ctx.principal, args.storeId)),
  },
  Mutation: {
    createInventoryItem: async (_: unknown, args: TenantArgs & { input: ItemInput }, ctx: RequestContext) =>
      ctx.services.inventory.createItem(await tenantFor(ctx, args, WRITE), args.input),
    updateInventoryItem: async (_: unknown, args: { id: string; input: ItemInput }, ctx: RequestContext) => {
      return ctx.services.inventory.updateItem(await tenantsFor(ctx, WRITE), args.id, args.input);
    },
    recordInventoryCount: async (_: unknown, args: TenantArgs & { input: CountInput }, ctx: RequestContext) => {
      const { count, item } = await ctx.services.inventory.recordCount(await tenantFor(ctx, args, WRITE), args.input);
      // The item was read (in the tenant) to check the count: its fields need not read it again.
      loaders(ctx).inventoryItem.prime(item.id, item);
      return count;
    },
  },
  InventoryItem: {
    // Federation: Query._entities, batched by the item loader (scope inventory:read; an item of every store, or of
    // a store-scoped user's own; another partner's is null).
    __resolveReference: async (ref: { id: string }, ctx: RequestContext) => {
      requireAccess(ctx.principal, READ);
      const item = await loaders(ctx).inventoryItem.load(ref.id);
      return item && (item.storeId === null || visibleStore(ctx.principal, item.storeId)) ? item : null;
    },
  },
  InventoryCount: {
    item: (count: InventoryCount, _: unknown, ctx: RequestContext) => countItem(count, ctx),
    unitCost: async (count: InventoryCount, _: unknown, ctx: RequestContext) => (await countItem(count, ctx)).defaultCost,
    value: async (count: InventoryCount, _: unknown, ctx: RequestContext) => {
      const cost = (await countItem(count, ctx)).defaultCost;
      return cost === null ? null : Math.round(count.baseQuantity * cost * 100) / 100;
    },
  },
} satisfies Resolvers;
