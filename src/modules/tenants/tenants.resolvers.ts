import { type AccessRule, requireAccess } from '../../platform/auth/access.ts';
import type { RequestContext } from '../../app/context.ts';
import type { TenantRow } from './tenants.service.ts';
import type { SsoProvider } from '../embed/sso/sso.service.ts';
import { loaders } from '../../app/loaders.ts';
import { tenantFor } from './tenant-access.ts';
import type { Resolvers } from '../../app/generated/resolvers.ts';

// Sub-tenant provisioning and embed sign-in are Platform Embed features (the contract's tier table).
const EMBED: AccessRule = { scope: 'tenants:write', tiers: ['embed'], partnerLevel: true };

export const tenantResolvers = {
  Query: {
    tenants: (_: unknown, args: { first?: number | null; after?: string | null }, ctx: RequestContext) => ctx.services.tenants.page(ctx.principal, args),
    tenant: async (_: unknown, args: { id: string }, ctx: RequestContext) => {
      const [id] = await ctx.services.tenants.scope(ctx.principal, args.id);
      return loaders(ctx).tenant.load(id!);
    },
  },
  Mutation: {
    createTenant: (
      _: unknown,
      args: { input: { name: string; email: string; maxLocations?: number | null; ssoProvider?: SsoProvider | null } },
      ctx: RequestContext,
    ) => {
      requireAccess(ctx.principal, EMBED);
      return ctx.services.provisioning.createTenant(ctx.principal, args.input);
    },
    reissueSetupLink: async (_: unknown, args: { tenantId: string }, ctx: RequestContext) =>
      ctx.services.provisioning.reissueSetupLink(await tenantFor(ctx, args, EMBED)),
    createEmbedSession: async (
      _: unknown,
      args: { tenantId: string; input: { email: string; name: string; role?: string | null; externalStoreId: string; page?: string | null } },
      ctx: RequestContext,
    ) => {
      return ctx.services.provisioning.createEmbedSession(await tenantFor(ctx, args, EMBED), args.input);
    },
  },
  Tenant: {
    // Federation: Query._entities, batched by the tenant loader (the caller's tenants only; another's is null).
    __resolveReference: (ref: { id: string }, ctx: RequestContext) => loaders(ctx).tenant.load(ref.id),
    users: async (tenant: TenantRow, _: unknown, ctx: RequestContext) => {
      requireAccess(ctx.principal, { scope: 'tenants:write' });
      return loaders(ctx).tenantUsers.load(tenant.id);
    },
  },
} satisfies Resolvers;
