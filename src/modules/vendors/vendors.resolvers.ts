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

export const vendorResolvers = {
  Query: {
    vendors: (_: unknown, args: VendorsArgs, ctx: RequestContext) => {
      requireAccess(ctx.principal, { scope: 'read' });
      return ctx.services.vendors.list(ctx.principal, args);
    },
    vendor: async (_: unknown, args: { id: string }, ctx: RequestContext) => {
      requireAccess(ctx.principal, { scope: 'read' });
      const vendor = await loaders(ctx).vendor.load(args.id);
      if (!vendor) throw new NotFound('vendor');
      return vendor;
    },
  },
  Vendor: {
    invoices: (vendor: Vendor, args: { first?: number | null; after?: string | null }, ctx: RequestContext) => {
      requireAccess(ctx.principal, { scope: 'invoices:read' });
      return ctx.services.invoices.list(ctx.principal, { ...args, filter: { tenantId: vendor.tenantId, vendorId: vendor.id } });
    },
  },
} satisfies Resolvers;
