import type { RequestContext } from '../../app/context.ts';
import type { TenantRow } from '../tenants/tenants.service.ts';
import { loaders } from '../../app/loaders.ts';
import type { LegacyPlan, Resolvers, Tier } from '../../app/generated/resolvers.ts';

/** The GraphQL Viewer without its tenants (a field resolver loads them). */
export interface Viewer {
  partnerId: string;
  name: string;
  tier: Tier;
  legacyPlan: LegacyPlan | null;
  scopes: string[];
  keyPrefix: string;
}

export const viewerResolvers = {
  Query: {
    viewer: (_: unknown, __: unknown, ctx: RequestContext): Viewer => {
      const { principal } = ctx;
      return {
        partnerId: principal.partner.id,
        name: principal.partner.name,
        tier: principal.partner.tier,
        legacyPlan: principal.partner.legacyPlan,
        scopes: [...principal.scopes],
        keyPrefix: principal.keyPrefix,
      };
    },
  },
  Viewer: {
    tenants: (_: unknown, __: unknown, ctx: RequestContext) => ctx.services.tenants.listForPartner(ctx.principal),
  },
  Tenant: {
    stores: (tenant: TenantRow, _: unknown, ctx: RequestContext) => loaders(ctx).storesByTenant.load(tenant.id),
  },
} satisfies Resolvers;
