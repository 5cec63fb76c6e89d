import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { type ExecutionArgs, type ExecutionResult, type FormattedExecutionResult, GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import type { WebSocket, WebSocketServer } from 'ws';
import { keyFromHeaders, type Principal } from '../auth/authenticate.ts';
import type { Credential, CredentialCheck } from '../auth/live-credentials.ts';
import type { CreateContext } from '../../app/context.ts';
import { AppError, RateLimited, Unauthenticated } from '../errors.ts';
import { deadlineFor } from '../graphql/deadline.ts';
import { freshLookup } from '../lib/fresh-lookup.ts';
import type { OperationGuard } from '../graphql/limits.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { RateDecision } from '../rate-limit/limiter.ts';
import { readCookie, SESSION_COOKIE } from './cookies.ts';
import { createSharedExecution, shareKey } from './shared-execution.ts';
import { type NextSink, nextSink } from './next-message.ts';

// graphql-ws on /graphql. A connection is authenticated when it opens, and its credential (API key or session
// cookie) is checked again before every operation and, for open connections, on every revocation in this process
// and every AUTH_RECHECK_MS (revocations by other instances, session expiry): a dead credential closes the socket
// with 4403 and the reason. Operations go through the same guard as /graphql and the REST routes.

/** graphql-ws's Forbidden close code: the client should not reconnect with the same credential. */
const FORBIDDEN = 4403;

/** What a connection keeps between operations. */
type ConnectionState = { principal?: Principal; credential?: Credential };
type Extra = ConnectionState & { socket: WebSocket; request: IncomingMessage };

export interface GraphQLWsDeps {
  schema: GraphQLSchema;
  guard: OperationGuard;
  authenticate: (key: string) => Promise<Principal>;
  sessionAuth: (token: string) => Promise<Principal | null>;
  createContext: CreateContext;
  rateLimit: (principal: Principal, channel: 'graphql') => Promise<RateDecision>;
  /** `authenticate` here always asks the database (the HTTP one may remember a principal for AUTH_CACHE_MS). */
  credentials: { authenticate: (key: string) => Promise<Principal>; stillLive: CredentialCheck; onChange: (listener: () => void) => void };
  recheckMs: number;
  keepAliveMs: number;
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
  log: FastifyBaseLogger;
  /** Counts each error a socket is sent, and each internal error that closes one (4500). */
  metrics?: Pick<Metrics, 'error'>;
}

export function serveGraphQLWs(wss: WebSocketServer, deps: GraphQLWsDeps): { dispose(): Promise<void> } {
  const open = new Set<Extra>();
  // Each socket looks its credential up when it connects and again for each operation; sockets of one key share
  // lookups that start after they asked (a reconnect storm costs a few lookups per key, not two per socket).
  const keyLookup = freshLookup(deps.credentials.authenticate);
  const sessionLookup = freshLookup(deps.sessionAuth);

  /** The principal of a credential now, or null when it is no longer live. */
  async function principalOf(credential: Credential): Promise<Principal | null> {
    if (credential.kind === 'session') return sessionLookup(credential.secret);
    try {
      return await keyLookup(credential.secret);
    } catch (err) {
      if (err instanceof Unauthenticated) return null;
      throw err;
    }
  }

  function refuse(extra: Extra): void {
    open.delete(extra);
    const reason = extra.credential?.kind === 'session' ? 'session expired or ended: sign in again' : 'API key revoked';
    extra.socket.close(FORBIDDEN, reason);
  }

  let checking: Promise<void> | undefined;
  /** Closes every open connection whose credential is no longer live (one pass at a time). */
  function recheckAll(): Promise<void> {
    if (!checking) {
      checking = closeDead().finally(() => {
        checking = undefined;
      });
    }
    return checking;
  }
  async function closeDead(): Promise<void> {
    const extras = [...open];
    if (extras.length === 0) return;
    try {
      const live = await deps.credentials.stillLive(extras.map((e) => e.credential!));
      for (const extra of extras) if (!live.has(extra.credential!)) refuse(extra);
    } catch (err) {
      deps.log.warn({ err }, 'checking the credentials of open graphql-ws connections failed; retrying');
    }
  }
  deps.credentials.onChange(() => void recheckAll());
  const timer = setInterval(() => void recheckAll(), deps.recheckMs);
  timer.unref();

  /** An error as a socket is sent it, masked and coded as on /graphql, and counted by its code. */
  const formatError = (error: GraphQLError): GraphQLFormattedError => {
    const formatted = deps.formatError(error.toJSON(), error);
    deps.metrics?.error('graphql', formatted.extensions?.code);
    return formatted;
  };
  /** What a socket is sent for a result (graphql-ws's `onNext`; a shared result is formatted once for its sockets). */
  const formatResult = (result: ExecutionResult): ExecutionResult | FormattedExecutionResult =>
    result.errors ? { ...result, errors: result.errors.map(formatError) } : result;
  /**
   * A hook whose unexpected error closes the socket with 4500 and a correlation id (graphql-ws would give the
   * error's own message as the reason), logged with the error and counted once.
   */
  const masked =
    <A extends unknown[], R>(hook: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await hook(...args);
      } catch (err) {
        const correlationId = randomUUID();
        deps.log.error({ err, correlationId }, 'unhandled error in graphql-ws');
        deps.metrics?.error('graphql', err instanceof AppError ? err.code : 'INTERNAL_SERVER_ERROR');
        throw new Error(`internal server error (correlation id ${correlationId})`);
      }
    };
  const shared = createSharedExecution(formatResult);
  const server = useServer<Record<string, unknown>, ConnectionState>(
    {
      schema: deps.schema,
      // Each event is executed once per share key (credential identity, document, variables), not once per socket.
      subscribe: masked(shared.subscribe),
      jsonMessageReviver: refuseServerMessages,
      // No key, a bad key or a revoked key: the connection is closed with 4403 Forbidden.
      onConnect: masked(async (ctx) => {
        const credential = credentialOf(ctx.connectionParams, ctx.extra.request.headers);
        const principal = credential ? await principalOf(credential) : null;
        if (!principal) {
          deps.metrics?.error('graphql', 'UNAUTHENTICATED'); // counted as /graphql counts its 401s
          return false;
        }
        ctx.extra.principal = principal;
        ctx.extra.credential = credential;
        open.add(ctx.extra);
        return true;
      }),
      onClose: (ctx) => {
        open.delete(ctx.extra);
      },
      // One operation, one request: the credential is checked again, the rate limit counted, the guard applied.
      onSubscribe: masked(async (ctx, id, payload) => {
        const extra = ctx.extra;
        const principal = extra.credential ? await principalOf(extra.credential) : null;
        if (!principal) {
          refuse(extra);
          return [new GraphQLError('credential no longer valid', { extensions: { code: 'UNAUTHENTICATED' } })];
        }
        extra.principal = principal;
        const limit = await deps.rateLimit(principal, 'graphql');
        if (!limit.allowed) {
          const refused = RateLimited.of(limit);
          return [new GraphQLError(refused.message, { extensions: { code: refused.code, retryAfter: refused.retryAfter } })];
        }
        return executionArgs(payload, principal, nextSink(extra.socket, id));
      }),
      onNext: (_ctx, _id, _payload, _args, result) => formatResult(result),
      onError: (_ctx, _id, _payload, errors) => errors.map(formatError),
    },
    wss,
    deps.keepAliveMs,
  );

  /** The guarded, validated operation with its context, or the errors that refuse it. */
  function executionArgs(payload: SubscribePayload, principal: Principal, sink: NextSink): ExecutionArgs | readonly GraphQLError[] {
    try {
      const parsed = deps.guard.parse(payload.query);
      // The codes Apollo Server gives the same refusals on /graphql.
      if ('syntaxError' in parsed) return [withCode(parsed.syntaxError, 'GRAPHQL_PARSE_FAILED')];
      if (parsed.errors.length) return parsed.errors.map((e) => withCode(e, 'GRAPHQL_VALIDATION_FAILED'));
      // The guard resolves the operation (undefined: the document holds none of that name, or several and no name).
      const operation = deps.guard.check(parsed.document, payload.variables ?? {}, payload.operationName);
      if (!operation) {
        const message = payload.operationName
          ? `Unknown operation named "${payload.operationName}".`
          : 'Must provide operation name if query contains multiple operations.';
        return [new GraphQLError(message, { extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } })];
      }
      const contextValue = { ...deps.createContext(principal, randomUUID(), deps.log), deadline: deadlineFor(operation, deps.guard.limits.deadlineMs) };
      shared.mark(contextValue, shareKey(principal, payload), sink);
      return {
        schema: deps.schema,
        document: parsed.document,
        variableValues: payload.variables ?? {},
        operationName: payload.operationName ?? undefined,
        contextValue,
      };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const fields = err.code === 'BAD_USER_INPUT' ? { fields: err.details.fields } : {};
      return [new GraphQLError(err.message, { extensions: { code: err.code, ...fields } })];
    }
  }

  return {
    async dispose() {
      clearInterval(timer);
      await server.dispose();
    },
  };
}

/** The error with `code` in its extensions unless it has one (a guard's rule sets QUERY_TOO_COMPLEX); a new error: parsed documents and their errors are cached. */
function withCode(error: GraphQLError, code: string): GraphQLError {
  if (error.extensions.code) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, code },
  });
}

/** Messages a client may send; graphql-ws would close on the others (next, error, connection_ack) with 4500. */
const CLIENT_MESSAGES = new Set(['connection_init', 'ping', 'pong', 'subscribe', 'complete']);

/**
 * A message only a server sends is the client's protocol error: failing to parse it makes graphql-ws close with
 * 4400 "Invalid message received" instead of 4500 (its internal error) and a stack trace on stderr.
 */
function refuseServerMessages(this: unknown, key: string, value: unknown): unknown {
  if (key === '' && value && typeof value === 'object' && 'type' in value && !CLIENT_MESSAGES.has(String(value.type))) {
    throw new Error(`a client may not send ${String(value.type)} messages`);
  }
  return value;
}

/** An API key from the connection params (or the upgrade request's headers), else a same-origin session cookie. */
function credentialOf(params: Record<string, unknown> | undefined, headers: Extra['request']['headers']): Credential | undefined {
  const key = keyFromConnection(params, headers);
  if (key) return { kind: 'key', secret: key };
  const cookie = readCookie(headers.cookie, SESSION_COOKIE);
  // A cookie rides along with any site's WebSocket: only a page of this origin may use it.
  return cookie && sameOrigin(headers) ? { kind: 'session', secret: cookie } : undefined;
}

function keyFromConnection(params: Record<string, unknown> | undefined, headers: Extra['request']['headers']): string | undefined {
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
function sameOrigin(headers: Extra['request']['headers']): boolean {
  const origin = typeof headers.origin === 'string' ? headers.origin : undefined;
  if (!origin) return false;
  try {
    return new URL(origin).host === headers.host;
  } catch {
    return false;
  }
}
