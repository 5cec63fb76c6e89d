import { scopedStore } from '../../platform/auth/access.ts';
import type { RequestContext } from '../../app/context.ts';
import { tenantFor } from '../tenants/tenant-access.ts';
import type { Resolvers } from '../../app/generated/resolvers.ts';

type Args = { tenantId?: string | null; storeId?: string | null; startDate?: string | null; endDate?: string | null };

export const spendResolvers = {
  Query: {
    spendReport: async (_: unknown, args: Args, ctx: RequestContext) => {
      return ctx.services.spend.report(await tenantFor(ctx, args, { scope: 'invoices:read' }), { ...args, storeId: scopedStore(ctx.principal, args.storeId) });
    },
  },
} satisfies Resolvers;
