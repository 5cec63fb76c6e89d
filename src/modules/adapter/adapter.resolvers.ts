import { type AccessRule, requireAccess } from '../../platform/auth/access.ts';
import type { AdapterExtractInput } from './adapter.service.ts';
import type { RequestContext } from '../../app/context.ts';
import type { Resolvers } from '../../app/generated/resolvers.ts';

// The contract gives the adapter scope invoices:read; its profiles are the same feature's configuration.
const ADAPTER: AccessRule = { scope: 'invoices:read', partnerLevel: true };

export const adapterResolvers = {
  Query: {
    shapeProfiles: (_: unknown, __: unknown, ctx: RequestContext) => {
      requireAccess(ctx.principal, ADAPTER);
      return ctx.services.adapter.listProfiles(ctx.principal);
    },
  },
  Mutation: {
    setShapeProfile: (_: unknown, args: { name: string; spec: Record<string, unknown>; isDefault?: boolean | null }, ctx: RequestContext) => {
      requireAccess(ctx.principal, ADAPTER);
      return ctx.services.adapter.setProfile(ctx.principal, args);
    },
    deleteShapeProfile: (_: unknown, args: { name: string }, ctx: RequestContext) => {
      requireAccess(ctx.principal, ADAPTER);
      return ctx.services.adapter.deleteProfile(ctx.principal, args.name);
    },
    adapterExtract: (_: unknown, args: { input: AdapterExtractInput }, ctx: RequestContext) => {
      requireAccess(ctx.principal, ADAPTER);
      return ctx.services.adapter.extract(ctx.principal, args.input);
    },
  },
} satisfies Resolvers;
