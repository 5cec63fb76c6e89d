import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from './auth/authenticate.ts';
import type { Services } from './services.ts';

/**
 * What every resolver sees, for /graphql, graphql-ws and the REST routes alike. A new object per request
 * (per operation on a WebSocket), so per-request DataLoaders can hang off it.
 */
export interface RequestContext {
  principal: Principal;
  services: Services;
  requestId: string;
  log: FastifyBaseLogger;
}

export function createContextFactory(services: Services) {
  return (principal: Principal, requestId: string, log: FastifyBaseLogger): RequestContext => ({
    principal,
    services,
    requestId,
    log,
  });
}
export type CreateContext = ReturnType<typeof createContextFactory>;
