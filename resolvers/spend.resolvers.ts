import { requireAccess, scopedStore } from '../src/auth/access.ts';
import type { RequestContext } from '../src/context.ts';

type Args = { tenantId?: string | null; storeId?: string | null; startDate?: string | null; endDate?: string | null };

export const spendResolvers = {
  Query: {
    spendReport: async (_: unknown, args: Args, ctx: RequestContext) => {
      requireAccess(ctx.principal, { scope: 'invoices:read' });
      return ctx.services.spend.report(await ctx.services.tenants.resolve(ctx.principal, args.tenantId), { ...args, storeId: scopedStore(ctx.principal, args.storeId) });
    },
  },
};
