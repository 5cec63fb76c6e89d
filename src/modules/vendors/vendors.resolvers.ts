import { requireAccess } from '../../platform/auth/access.ts';
import type { RequestContext } from '../../app/context.ts';
import { NotFound } from '../../platform/errors.ts';
import type { Vendor } from './vendors.service.ts';
import { loaders } from '../../app/loaders.ts';
import type { Resolvers } from '../../app/generated/resolvers.ts';

interface VendorsArgs {
  tenantId?: string | null;
  limit?: number | null;
  offset?: number | null;
}

/** A vendor of the caller's tenants, or null (scope read). */
function visibleVendor(id: string, ctx: RequestContext): Promise<Vendor | null> {
  requireAccess(ctx.principal, { scope: 'read' });
  return loaders(ctx).vendor.load(id);
}

export const vendorResolvers = {
  Query: {
    vendors: (_: unknown, args: VendorsArgs, ctx: RequestContext) => {
      requireAccess(ctx.principal, { scope: 'read' });
      return ctx.services.vendors.list(ctx.principal, args);
    },
    vendor: async (_: unknown, args: { id: string }, ctx: RequestContext) => {
      const vendor = await visibleVendor(args.id, ctx);
      if (!vendor) throw new NotFound('vendor');
      return vendor;
    },
  },
  Vendor: {
    // Federation: Query._entities, batched by the vendor loader; another partner's is null.
    __resolveReference: (ref: { id: string }, ctx: RequestContext) => visibleVendor(ref.id, ctx),
    invoices: (vendor: Vendor, args: { first?: number | null; after?: string | null }, ctx: RequestContext) => {
      requireAccess(ctx.principal, { scope: 'invoices:read' });
      return ctx.services.invoices.list(ctx.principal, { ...args, filter: { tenantId: vendor.tenantId, vendorId: vendor.id } });
    },
  },
} satisfies Resolvers;
