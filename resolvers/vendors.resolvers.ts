import { requireAccess } from '../src/auth/access.ts';
import type { RequestContext } from '../src/context.ts';

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
  },
};
