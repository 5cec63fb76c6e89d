import type { Logger } from '../platform/log.ts';
import type { Principal } from '../platform/auth/authenticate.ts';
import type { WithDeadline } from '../platform/graphql/deadline.ts';
import type { RateDecision } from '../platform/rate-limit/limiter.ts';
import type { Channel } from '../platform/rate-limit/policy.ts';
import type { Services } from './services.ts';

/**
 * What every resolver sees, for /graphql, graphql-ws and the REST routes alike. A new object per request
 * (per operation on a WebSocket), so per-request DataLoaders can hang off it.
 */
export interface RequestContext extends WithDeadline {
  principal: Principal;
  services: Services;
  requestId: string;
  log: Logger;
  /** The rate-limit decision of this request (GraphQL reports it in the response's extensions). */
  rateLimit?: RateDecision;
  /** How the request came in: a REST family, or GraphQL (usage is metered per channel). */
  channel: Channel;
}

export function createContextFactory(services: Services) {
  return (principal: Principal, requestId: string, log: Logger): RequestContext => ({
    principal,
    services,
    requestId,
    log,
    channel: 'graphql',
  });
}
export type CreateContext = ReturnType<typeof createContextFactory>;
