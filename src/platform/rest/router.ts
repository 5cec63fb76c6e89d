import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type DocumentNode, type FragmentDefinitionNode, Kind, parse, visit } from 'graphql';
import { type KeySource, keyFromHeaders, type Principal } from '../auth/authenticate.ts';
import { AppError, InvalidInput, RateLimited } from '../errors.ts';
import { textProblem } from '../graphql/input-text.ts';
import type { OperationExecutor } from '../graphql/executor.ts';
import { MultipartBody, readMultipart } from '../http/multipart.ts';
import { fingerprint, idempotencyKeyOf, type IdempotencyStore, type IdempotentStart, REPLAYED_HEADER } from '../idempotency/idempotency.ts';
import type { Logger } from '../log.ts';
import { type RateDecision, rateLimitHeaders } from '../rate-limit/limiter.ts';
import { errorOfResult, type Family, restError } from './errors.ts';
import type { AnyRestRoute, RestRequest } from './route.ts';
import { storedOperationFile } from './operation-files.ts';
import type { Metrics } from '../metrics/metrics.ts';

export interface RestCompatDeps {
  /** The one stored-operation executor (shared with the pages). */
  executor: OperationExecutor;
  authenticate: (apiKey: string) => Promise<Principal>;
  /** The per-request context every resolver sees (built by the composition root). */
  createContext: (principal: Principal, requestId: string, log: Logger) => object;
  /** Counts the request against the key's limits (src/rate-limit). */
  rateLimit: (principal: Principal, channel: Family) => Promise<RateDecision>;
  /** Idempotency-Key on POST routes; without it the header is ignored. */
  idempotency?: IdempotencyStore;
  /** Counts each stored operation run and each error answered (GET /metrics). */
  metrics?: Pick<Metrics, 'operation' | 'error'>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

const KEY_SOURCE: Record<Family, KeySource> = { v1: 'x-api-key', legacy: 'bearer', adapter: 'bearer' };

let sharedFragments: Map<string, FragmentDefinitionNode> | undefined;

/** operations/fragments.graphql: field selections several operations share (the REST resource shapes). */
function fragments(): Map<string, FragmentDefinitionNode> {
  if (!sharedFragments) {
    const doc = parse(readFileSync(new URL('./fragments.graphql', import.meta.url), 'utf8'));
    sharedFragments = new Map(doc.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  }
  return sharedFragments;
}

/** The shared fragments a document spreads (transitively) and does not define itself. */
function withSharedFragments(document: DocumentNode): DocumentNode {
  const defined = new Set(document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => d.name.value));
  const added: FragmentDefinitionNode[] = [];
  const pending = [document as DocumentNode | FragmentDefinitionNode];
  while (pending.length) {
    visit(pending.pop()!, {
      FragmentSpread(node) {
        const name = node.name.value;
        const shared = fragments().get(name);
        if (defined.has(name) || !shared) return;
        defined.add(name);
        added.push(shared);
        pending.push(shared);
      },
    });
  }
  return added.length ? { ...document, definitions: [...document.definitions, ...added] } : document;
}

/**
 * Parses and validates a stored operation against the schema (and the depth and alias limits when a guard is
 * given); a broken one stops the server from starting.
 */
export function loadOperation(executor: OperationExecutor, name: string): DocumentNode {
  const file = storedOperationFile(name);
  const document = withSharedFragments(parse(readFileSync(file, 'utf8')));
  const ops = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (ops.length !== 1 || ops[0]?.name?.value !== name) {
    throw new Error(`rest-compat operation ${name}.graphql must hold exactly one operation named ${name}`);
  }
  return executor.prepare(document, `rest-compat operation ${name}`);
}

/** Mounts every route: authenticate → map input → execute the stored operation → map output or error. */
export function registerRestRoutes(app: FastifyInstance, routes: readonly AnyRestRoute[], deps: RestCompatDeps): void {
  for (const route of routes) {
    const document = loadOperation(deps.executor, route.operation);
    const type = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION)?.operation ?? 'query';
    app.route({
      method: route.method,
      url: route.path.replace(/\{(\w+)\}/g, ':$1'),
      handler: async (request, reply) => {
        let started: IdempotentStart | undefined;
        /** Sends a JSON response, keeping it for retries when the request holds an Idempotency-Key. */
        const send = async (status: number, body: unknown) => {
          const payload = body === undefined ? '' : JSON.stringify(body);
          if (started?.kind === 'run') await started.finish({ status, contentType: JSON_TYPE, body: payload });
          return body === undefined ? reply.code(status).send() : reply.code(status).type(JSON_TYPE).send(payload);
        };
        try {
          const principal = await deps.authenticate(keyFromHeaders(request.headers, KEY_SOURCE[route.family]));
          const limit = await deps.rateLimit(principal, route.family);
          reply.headers(rateLimitHeaders(limit));
          if (!limit.allowed) throw RateLimited.of(limit);
          const idempotencyKey = route.method === 'POST' && deps.idempotency ? idempotencyKeyOf(request.headers) : undefined;
          const rest = await restRequest(request);
          const input = restInput(rest);
          // The text rule on the request as sent, so a problem is named by the REST field (the variables may rename it).
          const problem = textProblem(input);
          if (problem) throw InvalidInput.field(problem.field, problem.problem);
          if (idempotencyKey) {
            started = await deps.idempotency!.start(principal.partner.id, idempotencyKey, fingerprint({ route: `${route.method} ${route.path}`, input }));
            if (started.kind === 'replay') {
              const kept = started.response;
              return reply.code(kept.status).type(kept.contentType).header(REPLAYED_HEADER, 'true').send(kept.body);
            }
          }
          const variables = route.variables(rest);
          const t0 = performance.now();
          const result = await deps.executor.run(document, variables, {
            ...deps.createContext(principal, request.id ?? randomUUID(), request.log),
            rateLimit: limit,
            channel: route.family,
          });
          deps.metrics?.operation('rest', route.operation, type, (performance.now() - t0) / 1000);
          if (result.errors?.length) throw errorOfResult(result.errors[0]!, deps.executor.schema);
          // The executor's data is the operation's result: the type `respond` was checked against.
          const { status, body } = (route.respond as (data: unknown) => { status: number; body: unknown })(result.data);
          return await send(status, body);
        } catch (err) {
          deps.metrics?.error('rest', err instanceof AppError ? err.code : 'INTERNAL_SERVER_ERROR', request);
          const failure = restError(route.family, err, request.log);
          reply.headers(failure.headers);
          return send(failure.status, failure.body);
        }
      },
    });
  }
}

/** Path, query and body; a multipart body is read here, after authentication, into a MultipartBody. */
async function restRequest(request: FastifyRequest): Promise<RestRequest> {
  return {
    params: (request.params ?? {}) as Record<string, string>,
    query: (request.query ?? {}) as Record<string, unknown>,
    body: request.isMultipart() ? await readMultipart(request) : request.body,
  };
}

/** Path, query and body values under their REST names (a multipart body's text fields and files side by side). */
function restInput({ params, query, body }: RestRequest): Record<string, unknown> {
  const fromBody =
    body instanceof MultipartBody ? { ...body.fields, ...body.files } : body && typeof body === 'object' && !Array.isArray(body) ? body : { body };
  return { ...params, ...query, ...fromBody };
}
