import { type AccessRule, requireAccess } from '../../platform/auth/access.ts';
import type { BrandingInput } from './branding.service.ts';
import type { RequestContext } from '../../app/context.ts';
import type { Resolvers } from '../../app/generated/resolvers.ts';

// Partner-level configuration: API keys only, never a tenant user's browser session.
const READ: AccessRule = { scope: ['read', 'tenants:write'], partnerLevel: true };
const WRITE: AccessRule = { scope: 'tenants:write', partnerLevel: true };

export const brandingResolvers = {
  Query: {
    branding: (_: unknown, __: unknown, ctx: RequestContext) => {
      requireAccess(ctx.principal, READ);
      return ctx.services.branding.get(ctx.principal.partner.id);
    },
  },
  Mutation: {
    setBranding: (_: unknown, args: { input: BrandingInput }, ctx: RequestContext) => {
      requireAccess(ctx.principal, WRITE);
      return ctx.services.branding.set(ctx.principal.partner.id, args.input);
    },
  },
} satisfies Resolvers;
