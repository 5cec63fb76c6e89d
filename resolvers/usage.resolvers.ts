import { requireApiKey } from '../src/auth/access.ts';
import type { RequestContext } from '../src/context.ts';

// Any valid key may read its partner's usage (the legacy endpoint needs no particular scope either).
export const usageResolvers = {
  Query: {
    usage: (_: unknown, args: { period?: string | null }, ctx: RequestContext) => {
      requireApiKey(ctx.principal);
      return ctx.services.usage.usage(ctx.principal, args.period);
    },
    legacyUsage: (_: unknown, __: unknown, ctx: RequestContext) => {
      requireApiKey(ctx.principal);
      return ctx.services.usage.legacy(ctx.principal, ctx.rateLimit);
    },
  },
};
