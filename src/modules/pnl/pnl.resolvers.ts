import { requireAccess, scopedStore } from '../../platform/auth/access.ts';
import type { RequestContext } from '../../app/context.ts';
import { loaders } from '../../app/loaders.ts';
import { tenantFor } from '../tenants/tenant-access.ts';
import type { Resolvers } from '../../app/generated/resolvers.ts';
import type { ProfitAndLossInput } from './pnl.service.ts';

export const profitAndLossResolvers = {
  Query: {
    profitAndLoss: async (_: unknown, args: ProfitAndLossInput & { tenantId?: string | null }, ctx: RequestContext) => {
      // Costs come from invoices, labor from punches: both reads are needed.
      const tenantId = await tenantFor(ctx, args, { scope: 'invoices:read' });
      requireAccess(ctx.principal, { scope: 'scheduling:read' });
      return ctx.services.profitAndLoss.report(tenantId, { ...args, storeId: scopedStore(ctx.principal, args.storeId) });
    },
  },
  ProfitAndLossStore: {
    store: (row: { storeId?: string | null }, _: unknown, ctx: RequestContext) => (row.storeId ? loaders(ctx).store.load(row.storeId) : null),
  },
} satisfies Resolvers;
