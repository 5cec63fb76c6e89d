import { requireAccess } from '../../platform/auth/access.ts';
import type { RequestContext } from '../../app/context.ts';
import type { SearchEntityType } from './search.service.ts';
import type { Resolvers } from '../../app/generated/resolvers.ts';

export const searchResolvers = {
  Query: {
    search: (
      _: unknown,
      args: { query: string; type?: SearchEntityType | null; limit?: number | null; tenantId?: string | null; relevantOnly?: boolean | null },
      ctx: RequestContext,
    ) => {
      // The contract: GET /search needs the general read scope, a tenant's search needs search:read.
      requireAccess(ctx.principal, { scope: args.tenantId != null ? 'search:read' : 'read' });
      return ctx.services.search.search(ctx.principal, args);
    },
  },
} satisfies Resolvers;
