import { randomUUID } from 'node:crypto';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { type Authenticate, keyFromHeaders, type Principal } from '../auth/authenticate.ts';
import type { CreateContext, RequestContext } from '../context.ts';
import { AppError, RateLimited, Unauthenticated } from '../errors.ts';
import { type RateDecision, rateLimitHeaders } from '../rate-limit/limiter.ts';
import { formatGraphQLError } from './format-error.ts';
import { readCookie, SESSION_COOKIE } from './cookies.ts';
import { operationFromMultipart } from './graphql-multipart.ts';
import { readMultipart } from './multipart.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    rateLimit: RateDecision | null;
  }
}

/** `extensions.rateLimit` on every GraphQL response of a limited key: {policy, limit, remaining, reset}. */
const rateLimitExtensions: ApolloServerPlugin<RequestContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ contextValue, response }) {
        const limit = contextValue.rateLimit;
        if (!limit || limit.limit === null || response.body.kind !== 'single') return;
        const result = response.body.singleResult;
        result.extensions = { ...result.extensions, rateLimit: { policy: limit.policy.name, limit: limit.limit, remaining: limit.remaining, reset: limit.reset } };
      },
    };
  },
};

export interface GraphQLEndpoint {
  /** Closes every WebSocket (clients see 1001 Going Away) and stops Apollo. */
  stop(): Promise<void>;
}

/** `/graphql` over HTTP (Apollo Server) and graphql-ws subscriptions on the same path. */
export async function mountGraphQL(
  app: FastifyInstance,
  deps: {
    schema: GraphQLSchema;
    authenticate: Authenticate;
    createContext: CreateContext;
    /** Every operation counts as one request against the key's limits. */
    rateLimit: (principal: Principal, channel: 'graphql') => Promise<RateDecision>;
    /** The principal of a browser session cookie (the tenant pages), or null when it is not live. */
    sessionAuth: (token: string) => Promise<Principal | null>;
  },
): Promise<GraphQLEndpoint> {
  /** An API key when one is sent; otherwise the session cookie of a signed-in tenant user. */
  async function principalOf(headers: Record<string, string | string[] | undefined>): Promise<Principal> {
    const cookie = readCookie(headers.cookie, SESSION_COOKIE);
    if (cookie && !headers['x-api-key'] && !headers.authorization) {
      const principal = await deps.sessionAuth(cookie);
      if (principal) return principal;
      throw new Unauthenticated('your session has ended: sign in again');
    }
    return deps.authenticate(keyFromHeaders(headers, 'either'));
  }

  const formatError = formatGraphQLError(app.log);
  const apollo = new ApolloServer<RequestContext>({
    schema: deps.schema,
    // Partners generate typed clients from introspection; it is only reachable with a valid key anyway.
    introspection: true,
    includeStacktraceInErrorResponses: false,
    formatError,
    plugins: [fastifyApolloDrainPlugin(app), rateLimitExtensions],
  });
  await apollo.start();

  app.decorateRequest('principal', null);
  app.decorateRequest('rateLimit', null);
  app.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method === 'OPTIONS') return;
      try {
        request.principal = await principalOf(request.headers);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        // Both shapes: `error` like the REST families, `errors` for GraphQL clients.
        return reply.code(401).send({ error: err.message, errors: [{ message: err.message, extensions: { code: err.code } }] });
      }
      const limit = await deps.rateLimit(request.principal, 'graphql');
      reply.headers(rateLimitHeaders(limit));
      if (!limit.allowed) {
        const refused = RateLimited.of(limit);
        return reply
          .code(429)
          .header('retry-after', String(refused.retryAfter))
          .send({ error: refused.message, retryAfter: refused.retryAfter, errors: [{ message: refused.message, extensions: { code: refused.code, retryAfter: refused.retryAfter } }] });
      }
      request.rateLimit = limit;
      // File uploads (GraphQL multipart request spec), read only once the caller is known. Apollo's CSRF
      // prevention still applies: browsers' simple multipart posts need the Apollo-Require-Preflight header.
      if (request.method === 'POST' && request.isMultipart()) {
        try {
          request.body = operationFromMultipart(await readMultipart(request));
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          const status = err.code === 'PAYLOAD_TOO_LARGE' ? 413 : 400;
          return reply.code(status).send({ error: err.message, errors: [{ message: err.message, extensions: { code: err.code } }] });
        }
      }
    },
    handler: fastifyApolloHandler(apollo, {
      context: async (request) => ({ ...deps.createContext(request.principal!, request.id, request.log), rateLimit: request.rateLimit ?? undefined }),
    }),
  });

  const wss = new WebSocketServer({ server: app.server, path: '/graphql' });
  const ws = useServer<Record<string, unknown>, { principal?: Principal }>(
    {
      schema: deps.schema,
      // No key, a bad key or a revoked key: the connection is closed with 4403 Forbidden.
      onConnect: async (ctx) => {
        const key = keyFromConnection(ctx.connectionParams, ctx.extra.request.headers);
        const cookie = readCookie(ctx.extra.request.headers.cookie, SESSION_COOKIE);
        if (!key && !cookie) return false;
        // A cookie rides along with any site's WebSocket: only a page of this origin may use it.
        if (!key && !sameOrigin(ctx.extra.request.headers)) return false;
        try {
          const principal = key ? await deps.authenticate(key) : await deps.sessionAuth(cookie!);
          if (!principal) return false;
          ctx.extra.principal = principal;
          return true;
        } catch (err) {
          if (err instanceof Unauthenticated) return false;
          throw err;
        }
      },
      // One operation, one request: a refused one ends with a RATE_LIMITED error, the connection stays open.
      onSubscribe: async (ctx) => {
        const limit = await deps.rateLimit(ctx.extra.principal!, 'graphql');
        if (limit.allowed) return undefined;
        const refused = RateLimited.of(limit);
        return [new GraphQLError(refused.message, { extensions: { code: refused.code, retryAfter: refused.retryAfter } })];
      },
      context: (ctx) => deps.createContext(ctx.extra.principal!, randomUUID(), app.log),
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: result.errors.map((e) => formatError(e.toJSON(), e)) } : result,
      onError: (_ctx, _id, _payload, errors) => errors.map((e) => formatError(e.toJSON(), e)),
    },
    wss,
  );

  return {
    async stop() {
      await ws.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await apollo.stop();
    },
  };
}

function keyFromConnection(
  params: Record<string, unknown> | undefined,
  headers: Record<string, string | string[] | undefined>,
): string | undefined {
  const apiKey = params?.apiKey ?? params?.['x-api-key'];
  if (typeof apiKey === 'string' && apiKey) return apiKey;
  const authorization = params?.authorization ?? params?.Authorization;
  if (typeof authorization === 'string' && authorization) return authorization.replace(/^Bearer\s+/i, '').trim();
  try {
    return keyFromHeaders(headers, 'either');
  } catch {
    return undefined;
  }
}

/** The WebSocket was opened by a page of this server's own origin (Origin's host equals Host). */
function sameOrigin(headers: Record<string, string | string[] | undefined>): boolean {
  const origin = typeof headers.origin === 'string' ? headers.origin : undefined;
  if (!origin) return false;
  try {
    return new URL(origin).host === headers.host;
  } catch {
    return false;
  }
}
