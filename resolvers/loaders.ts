import DataLoader from 'dataloader';
import type { RequestContext } from '../src/context.ts';
import type { StoreRow } from '../src/tenants.service.ts';

/** Per-request DataLoaders, created on first use and dropped with the request's context. */
export interface Loaders {
  storesByTenant: DataLoader<string, StoreRow[], string>;
}

const perRequest = new WeakMap<RequestContext, Loaders>();

export function loaders(ctx: RequestContext): Loaders {
  let l = perRequest.get(ctx);
  if (!l) {
    const partnerId = ctx.principal.partner.id;
    l = {
      // Keys are tenant ids the caller already owns (they come from its own tenant rows); the cache key
      // still carries the partner so a loader can never serve one partner's rows to another.
      storesByTenant: new DataLoader((tenantIds) => ctx.services.tenants.storesOfTenants(tenantIds), {
        cacheKeyFn: (tenantId) => `${partnerId}:${tenantId}`,
      }),
    };
    perRequest.set(ctx, l);
  }
  return l;
}
