import type { FastifyRequest } from 'fastify';
import type { DocumentNode, ExecutionResult } from 'graphql';

// Known operations answered without Apollo Server's request pipeline (issue 17, point 3). Apollo adds ~90–120 µs
// to every request on this machine (`npm run bench -- apollo`: HTTP head objects, body checks, content
// negotiation, CSRF check, SHA-256 of the document, plugin hooks), which kept /graphql at 0.77–0.81× the REST route.
// A request the guard has already parsed and validated (the same spec rules Apollo runs), whose operation ran
// without errors, is answered here with what Apollo would send: the same JSON (`data`, then `extensions`), content
// type and status. Everything else goes through Apollo as before: GET, multipart uploads, bodies Apollo would refuse
// or treat specially (`extensions`, batches), other Accept preferences, and every result with errors — those are
// handed to Apollo already executed (no operation runs twice), so error formatting, masking and status stay
// Apollo's alone. test/api/graphql-fast-path.test.ts compares both answers byte for byte.

/** What the guard found for a request the fast path may answer. */
export interface FastOperation {
  document: DocumentNode;
  variables: Record<string, unknown> | undefined;
  operationName: string | undefined;
}

/** The operation of a POST JSON body the fast path may answer, or undefined when Apollo must see the request. */
export function fastOperation(request: FastifyRequest, document: DocumentNode): FastOperation | undefined {
  if (request.method !== 'POST' || !isJson(request.headers['content-type']) || !acceptsPlainJson(request.headers.accept)) return undefined;
  const body = request.body as Record<string, unknown>;
  if (!isRecord(body) || 'extensions' in body) return undefined;
  const { variables, operationName } = body;
  if (variables !== undefined && variables !== null && !isRecord(variables)) return undefined;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return undefined;
  return { document, variables: variables ?? undefined, operationName: operationName ?? undefined };
}

/** Apollo's answer to an operation that ran without errors: errors (none), data, extensions, in that order. */
export function fastResponse(data: ExecutionResult['data'], extensions: Record<string, unknown> | undefined): string {
  return JSON.stringify({ data, extensions });
}

/** Apollo's content type for such an answer. */
export const FAST_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Where a context carries its precomputed result (a symbol: Apollo's shallow copy of the context keeps it). */
const PRECOMPUTED = Symbol('precomputed result');

/**
 * Results computed on the fast path that Apollo must format (they have errors): the request keeps its result until
 * Apollo asks for the context, which then carries it to Apollo's executor, which takes it instead of running the
 * operation again.
 */
export class PrecomputedResults {
  private readonly byRequest = new WeakMap<FastifyRequest, Promise<ExecutionResult>>();
  keep(request: FastifyRequest, result: Promise<ExecutionResult>): void {
    this.byRequest.set(request, result);
  }
  /** Called with the context Apollo will execute with. */
  attach(request: FastifyRequest, context: object): void {
    const result = this.byRequest.get(request);
    if (result) Object.assign(context, { [PRECOMPUTED]: result });
  }
  /** The result computed for this context, if any. */
  take(context: unknown): Promise<ExecutionResult> | undefined {
    return (context as { [PRECOMPUTED]?: Promise<ExecutionResult> } | undefined)?.[PRECOMPUTED];
  }
}

/** Fastify's JSON parser took the body (`application/json` with or without parameters). */
function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/json\s*(;|$)/i.test(contentType);
}

/**
 * An Accept header for which Apollo answers `application/json; charset=utf-8` (its negotiation among JSON, GraphQL
 * response JSON and the callback variant): none, or one that accepts JSON and names neither alternative nor refuses
 * anything with q=0. Other headers go to Apollo.
 */
function acceptsPlainJson(accept: string | undefined): boolean {
  if (accept === undefined) return true;
  if (/graphql-response|callbackspec|q\s*=\s*0(\.0*)?\s*(,|;|$)/i.test(accept)) return false;
  return /(^|,)\s*(application\/json|application\/\*|\*\/\*)\s*(;|,|$)/i.test(accept);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
