import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import type { GatewayInterface } from '@apollo/server-gateway-interface';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type DocumentNode, getOperationAST, type GraphQLSchema, type OperationTypeNode } from 'graphql';
import { WebSocketServer } from 'ws';
import { type Authenticate, keyFromHeaders, type Principal } from '../auth/authenticate.ts';
import type { CreateContext, RequestContext } from '../../app/context.ts';
import type { CredentialCheck } from '../auth/live-credentials.ts';
import { httpStatus } from './error-status.ts';
import { AppError, InvalidInput, RateLimited, Unauthenticated } from '../errors.ts';
import { createCompiledExecution } from '../graphql/compiled-execution.ts';
import { FAST_CONTENT_TYPE, type FastOperation, fastOperation, fastResponse, PrecomputedResults } from './graphql-fast-path.ts';
import { deadlineFor } from '../graphql/deadline.ts';
import type { OperationGuard } from '../graphql/limits.ts';
import { type RateDecision, rateLimitHeaders } from '../rate-limit/limiter.ts';
import { formatGraphQLError } from './format-error.ts';
import { readCookie, SESSION_COOKIE } from './cookies.ts';
import { operationFromMultipart } from './graphql-multipart.ts';
import { serveGraphQLWs } from './graphql-ws.ts';
import { fingerprint, idempotencyKeyOf, type IdempotencyStore, type IdempotentStart, REPLAYED_HEADER } from '../idempotency/idempotency.ts';
import { readMultipart } from './multipart.ts';
import { metricsPlugin } from '../metrics/graphql-plugin.ts';
import type { Metrics } from '../metrics/metrics.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    rateLimit: RateDecision | null;
    /** The kind of operation the guard let through (queries get an execution deadline). */
    graphqlOperation: OperationTypeNode | null;
    /** A mutation sent with an Idempotency-Key that runs: its response is kept when it is sent. */
    idempotent: IdempotentStart | null;
    /** The operation when the fast path may answer it (graphql-fast-path.ts). */
    graphqlFast: FastOperation | null;
  }
}

/** A result's extensions with `rateLimit` ({policy, limit, remaining, reset}) when the key is limited. */
function withRateLimit(extensions: Record<string, unknown> | undefined, limit: RateDecision | null | undefined) {
  if (!limit || limit.limit === null) return extensions;
  return { ...extensions, rateLimit: { policy: limit.policy.name, limit: limit.limit, remaining: limit.remaining, reset: limit.reset } };
}

/** `extensions.rateLimit` on every GraphQL response of a limited key. */
const rateLimitExtensions: ApolloServerPlugin<RequestContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ contextValue, response }) {
        if (response.body.kind !== 'single') return;
        const result = response.body.singleResult;
        result.extensions = withRateLimit(result.extensions, contextValue.rateLimit);
      },
    };
  },
};

type ExecuteDocument = ReturnType<typeof createCompiledExecution>;

/**
 * Apollo Server's one way to execute with another engine is its gateway interface: this "gateway" serves our own
 * schema and runs each validated operation through graphql-jit (compiled-execution.ts; a client document is compiled
 * when it comes back a second time). Parsing, validation, plugins, error formatting and HTTP stay Apollo's. A result
 * the fast path computed (graphql-fast-path.ts: it had errors) is taken as it is instead of running the operation again.
 */
function compiledExecutor(schema: GraphQLSchema, executeDocument: ExecuteDocument, precomputed: PrecomputedResults): GatewayInterface {
  return {
    load: async () => ({
      // The operation name the client asked for, not the one Apollo resolved: when the document holds no operation of
      // that name Apollo resolves none (null), and the document's one operation would run instead of graphql-js's
      // "Unknown operation named" (which Apollo answers 400 OPERATION_RESOLUTION_FAILURE).
      executor: async ({ document, request, context }) =>
        precomputed.take(context) ?? executeDocument({ document, variables: request.variables, contextValue: context, operationName: request.operationName }),
    }),
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => {};
    },
    stop: async () => {},
  };
}

/** The largest JSON body /graphql reads (the biggest legitimate variable, a data-URL logo, is 100,000 characters). */
const MAX_JSON_BODY_BYTES = 512 * 1024;

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
    /** Depth, alias, token and cost limits and the text rule, for HTTP and WebSocket operations alike. */
    guard: OperationGuard;
    /** Open WebSockets re-check their credential with this, on revocations here and every `recheckMs`. */
    credentials: { authenticate: Authenticate; stillLive: CredentialCheck; onChange: (listener: () => void) => void };
    recheckMs: number;
    /** Each open WebSocket is pinged this often; one that has not answered by the next ping is closed. */
    keepAliveMs: number;
    /** Sends the explorer page to a browser that opens GET /graphql (no query; it accepts HTML). */
    explorer?: (reply: FastifyReply) => FastifyReply;
    /** Idempotency-Key on mutations over HTTP; without it the header is ignored. */
    idempotency?: IdempotencyStore;
    /** Counts operations and errors (GET /metrics), refusals before execution included. */
    metrics?: Metrics;
  },
): Promise<GraphQLEndpoint> {
  const countRefusal = (code: string, request: FastifyRequest) => deps.metrics?.error('graphql', code, request);
  /** An API key when one is sent; otherwise the session cookie of a signed-in tenant user. */
  async function principalOf(headers: Record<string, string | string[] | undefined>): Promise<Principal> {
    const cookie = headers['x-api-key'] || headers.authorization ? undefined : readCookie(headers.cookie, SESSION_COOKIE);
    if (cookie) {
      const principal = await deps.sessionAuth(cookie);
      if (principal) return principal;
      throw new Unauthenticated('your session has ended: sign in again');
    }
    return deps.authenticate(keyFromHeaders(headers, 'either'));
  }

  const formatError = formatGraphQLError(app.log);
  // One compiled execution for both ways in (a client document compiles when it comes back a second time).
  const executeDocument = createCompiledExecution(deps.schema, { compileAfterRuns: 1 });
  const precomputed = new PrecomputedResults();
  const apollo = new ApolloServer<RequestContext>({
    gateway: compiledExecutor(deps.schema, executeDocument, precomputed),
    // Partners generate typed clients from introspection; it is only reachable with a valid key anyway.
    introspection: true,
    includeStacktraceInErrorResponses: false,
    // Every document goes through the guard first; a hash-only persisted query would skip it.
    persistedQueries: false,
    formatError,
    // Compact JSON: Apollo pretty-prints responses by default (indentation cost ~5% of a 35-item read's CPU).
    stringifyResult: (result) => JSON.stringify(result),
    // Apollo's own landing page loads from a CDN with telemetry; browsers get our offline explorer instead. The schema
    // is a federation subgraph, so Apollo would also answer a router's `apollo-federation-include-trace` header with
    // per-resolver timings (and say so on stdout, outside the JSON log): off.
    plugins: [
      fastifyApolloDrainPlugin(app),
      rateLimitExtensions,
      ApolloServerPluginLandingPageDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      // No field has a cache hint; the plugin's willResolveField would wrap every resolver of every request.
      ApolloServerPluginCacheControlDisabled(),
      ...(deps.metrics ? [metricsPlugin(deps.metrics)] : []),
    ],
  });
  await apollo.start();

  app.decorateRequest('principal', null);
  app.decorateRequest('rateLimit', null);
  app.decorateRequest('graphqlOperation', null);
  app.decorateRequest('idempotent', null);
  app.decorateRequest('graphqlFast', null);
  const contextOf = (request: FastifyRequest): RequestContext => ({
    ...deps.createContext(request.principal!, request.id, request.log),
    rateLimit: request.rateLimit ?? undefined,
    deadline: deadlineFor(request.graphqlOperation ?? undefined, deps.guard.limits.deadlineMs),
  });
  const apolloHandler = fastifyApolloHandler(apollo, {
    context: async (request) => {
      const context = contextOf(request);
      precomputed.attach(request, context);
      return context;
    },
  });
  app.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    // A JSON request is a document of at most GRAPHQL_MAX_TOKENS tokens and its variables: a larger body is refused
    // while it is read, before anything parses it. (File uploads are multipart: their parts have their own limits.)
    bodyLimit: MAX_JSON_BODY_BYTES,
    errorHandler: (error, request, reply) => {
      const status = (error as { statusCode?: number }).statusCode;
      if (status !== 413) throw error;
      const message = `request body is larger than ${MAX_JSON_BODY_BYTES / 1024} KB: a GraphQL request is a document and its variables (send files as multipart uploads)`;
      countRefusal('PAYLOAD_TOO_LARGE', request);
      // Sent, not returned: a FastifyReply is thenable, and this handler's result is not awaited.
      void reply.code(400).send({ error: message, errors: [{ message, extensions: { code: 'PAYLOAD_TOO_LARGE' } }] });
    },
    preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method === 'OPTIONS') return;
      if (deps.explorer && request.method === 'GET' && opensExplorer(request)) return deps.explorer(reply);
      try {
        request.principal = await principalOf(request.headers);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        countRefusal(err.code, request);
        // Both shapes: `error` like the REST families, `errors` for GraphQL clients.
        return reply.code(401).send({ error: err.message, errors: [{ message: err.message, extensions: { code: err.code } }] });
      }
      const limit = await deps.rateLimit(request.principal, 'graphql');
      reply.headers(rateLimitHeaders(limit));
      if (!limit.allowed) {
        const refused = RateLimited.of(limit);
        countRefusal(refused.code, request);
        return reply
          .code(httpStatus(refused.code))
          .header('retry-after', String(refused.retryAfter))
          .send({
            error: refused.message,
            retryAfter: refused.retryAfter,
            errors: [{ message: refused.message, extensions: { code: refused.code, retryAfter: refused.retryAfter } }],
          });
      }
      request.rateLimit = limit;
      // File uploads (GraphQL multipart request spec), read only once the caller is known. Apollo's CSRF
      // prevention still applies: browsers' simple multipart posts need the Apollo-Require-Preflight header.
      if (request.method === 'POST' && request.isMultipart()) {
        try {
          request.body = operationFromMultipart(await readMultipart(request));
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          countRefusal(err.code, request);
          // A GraphQL multipart request follows the table's legacy column: an oversized file is 413.
          return reply.code(httpStatus(err.code, 'legacy')).send({ error: err.message, errors: [{ message: err.message, extensions: { code: err.code } }] });
        }
      }
      try {
        const guarded = guardRequest(deps.guard, request);
        request.graphqlOperation = guarded?.operation ?? null;
        if (guarded && (guarded.operation === 'query' || guarded.operation === 'mutation')) {
          request.graphqlFast = fastOperation(request, guarded.document) ?? null;
        }
        const key = deps.idempotency && request.method === 'POST' && request.graphqlOperation === 'mutation' ? idempotencyKeyOf(request.headers) : undefined;
        if (key) {
          const started = await deps.idempotency!.start(request.principal.partner.id, key, fingerprint(request.body));
          if (started.kind === 'replay') {
            const kept = started.response;
            return reply.code(kept.status).type(kept.contentType).header(REPLAYED_HEADER, 'true').send(kept.body);
          }
          request.idempotent = started;
        }
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        countRefusal(err.code, request);
        const fields = err.code === 'BAD_USER_INPUT' ? { fields: err.details.fields } : {};
        return reply.code(httpStatus(err.code)).send({ error: err.message, errors: [{ message: err.message, extensions: { code: err.code, ...fields } }] });
      }
    },
    // The response of a mutation that ran under an Idempotency-Key, kept as sent for its retries.
    onSend: async (request, reply, payload) => {
      const started = request.idempotent;
      if (started?.kind !== 'run') return payload;
      request.idempotent = null;
      const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
      await started.finish(
        body === null
          ? { status: 500, contentType: '', body: '' }
          : { status: reply.statusCode, contentType: String(reply.getHeader('content-type') ?? 'application/json'), body },
      );
      return payload;
    },
    handler: async function (request, reply) {
      const fast = request.graphqlFast;
      if (fast) {
        const started = performance.now();
        const contextValue = contextOf(request);
        const running = Promise.resolve().then(() => executeDocument({ ...fast, contextValue }));
        const result = await running.catch(() => null);
        if (result && !result.errors?.length) {
          deps.metrics?.operation('graphql', operationNameOf(fast), request.graphqlOperation!, (performance.now() - started) / 1000);
          return reply.header('content-type', FAST_CONTENT_TYPE).send(fastResponse(result.data, withRateLimit(result.extensions, request.rateLimit)));
        }
        // Errors (or a throw) are Apollo's to format: it gets this result instead of running the operation again.
        precomputed.keep(request, running);
      }
      return apolloHandler.call(this, request, reply);
    },
  });

  const wss = new WebSocketServer({ server: app.server, path: '/graphql' });
  const ws = serveGraphQLWs(wss, { ...deps, formatError, log: app.log });

  return {
    async stop() {
      await ws.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await apollo.stop();
    },
  };
}

/** A browser opening /graphql: it prefers HTML and sends no operation. */
function opensExplorer(request: FastifyRequest): boolean {
  const query = request.query as Record<string, unknown> | undefined;
  return !query?.query && !query?.extensions && /\btext\/html\b/.test(String(request.headers.accept ?? ''));
}

/**
 * The guard's checks on an HTTP request's operation (GET query string or POST body). Requests without a document,
 * and documents with syntax or validation errors, are left to Apollo to refuse its usual way.
 */
function guardRequest(guard: OperationGuard, request: FastifyRequest): { operation: OperationTypeNode | undefined; document: DocumentNode } | undefined {
  const params = (request.method === 'GET' ? request.query : request.body) as Record<string, unknown> | undefined;
  if (!params || typeof params !== 'object' || typeof params.query !== 'string') return undefined;
  const parsed = guard.parse(params.query);
  if ('syntaxError' in parsed || parsed.errors.length) return undefined;
  let variables = params.variables;
  if (typeof variables === 'string') {
    try {
      variables = JSON.parse(variables);
    } catch {
      return undefined;
    }
  }
  const operationName = typeof params.operationName === 'string' ? params.operationName : undefined;
  const operation = guard.check(parsed.document, variables ?? {}, operationName);
  if (operation === 'subscription') {
    throw new InvalidInput('subscriptions are served over WebSocket (graphql-ws, subprotocol graphql-transport-ws) on this same path, not over HTTP');
  }
  return { operation, document: parsed.document };
}

/** The name the metrics give an operation: its own, or the one the request named. */
function operationNameOf(fast: FastOperation): string | undefined {
  return getOperationAST(fast.document, fast.operationName)?.name?.value ?? fast.operationName;
}
