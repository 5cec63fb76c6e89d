import type { RequestContext } from '../../app/context.ts';
import type { StoreInput } from './tenants.service.ts';
import { loaders } from '../../app/loaders.ts';
import { tenantFor } from './tenant-access.ts';
import type { Resolvers } from '../../app/generated/resolvers.ts';

// Stores are readable with any key (the viewer lists them too); creating one needs tenants:write.
export const storeResolvers = {
  Query: {
    stores: async (_: unknown, args: { tenantId?: string | null }, ctx: RequestContext) =>
      loaders(ctx).storesByTenant.load(await ctx.services.tenants.resolve(ctx.principal, args.tenantId)),
    store: (_: unknown, args: { id: string }, ctx: RequestContext) => loaders(ctx).store.load(args.id),
  },
  Store: {
    // Federation: Query._entities, batched by the store loader (the caller's tenants only; another's is null).
    __resolveReference: (ref: { id: string }, ctx: RequestContext) => loaders(ctx).store.load(ref.id),
  },
  Mutation: {
    createStore: async (_: unknown, args: { tenantId?: string | null; input: StoreInput }, ctx: RequestContext) => {
      return ctx.services.tenants.createStore(await tenantFor(ctx, args, { scope: 'tenants:write' }), args.input);
    },
  },
} satisfies Resolvers;
