import { type AccessRule, requireAccess } from '../../platform/auth/access.ts';
import type { RequestContext } from '../../app/context.ts';
import type { Resolvers } from '../../app/generated/resolvers.ts';

// Any valid API key may read its partner's usage (the legacy endpoint needs no particular scope either);
// a tenant user's browser session may not.
const USAGE: AccessRule = { partnerLevel: true };
export const usageResolvers = {
  Query: {
    usage: (_: unknown, args: { period?: string | null }, ctx: RequestContext) => {
      requireAccess(ctx.principal, USAGE);
      return ctx.services.usage.usage(ctx.principal, args.period);
    },
    legacyUsage: (_: unknown, __: unknown, ctx: RequestContext) => {
      requireAccess(ctx.principal, USAGE);
      return ctx.services.usage.legacy(ctx.principal, ctx.rateLimit);
    },
  },
} satisfies Resolvers;
