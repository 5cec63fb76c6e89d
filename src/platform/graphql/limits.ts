import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { MaxTokensParserWLexer } from '@escape.tech/graphql-armor-max-tokens';
import {
  type DocumentNode,
  getNamedType,
  getNullableType,
  getOperationAST,
  GraphQLError,
  type GraphQLField,
  type GraphQLSchema,
  isCompositeType,
  isListType,
  Kind,
  type OperationTypeNode,
  specifiedRules,
  type ValidationRule,
  validate,
} from 'graphql';
import { type ComplexityEstimator, getComplexity } from 'graphql-query-complexity';
import { AppError, InvalidInput } from '../errors.ts';
import { fieldMergeComparisons } from './field-merging.ts';
import { textProblem } from './input-text.ts';

// One guard for every way an operation reaches the schema — /graphql, graphql-ws and the stored REST operations:
// a token limit while parsing, depth and alias limits while validating (GraphQL Armor), then, per request, a cost
// computed from the list sizes the variables ask for (graphql-query-complexity) and the text-input rule.

export interface OperationLimits {
  maxDepth: number;
  maxAliases: number;
  maxTokens: number;
  /** Estimated fields resolved: each object field counts 1, times the list sizes above it. */
  maxCost: number;
  /** A query stops resolving new fields once it has run this long (mutations are bounded by their own work). */
  deadlineMs: number;
}

/** DESIGN §9: depth 10, aliases 30, tokens 5,000, cost ≤ 10,000. */
export const DEFAULT_LIMITS: OperationLimits = { maxDepth: 10, maxAliases: 30, maxTokens: 5000, maxCost: 10_000, deadlineMs: 10_000 };

/** The operation is over one of the limits: 400 with extensions.code QUERY_TOO_COMPLEX. */
export class QueryTooComplex extends AppError {
  constructor(message: string) {
    super('QUERY_TOO_COMPLEX', message);
  }
}

/** A list field without first/limit is costed as this many items (lists the server bounds, e.g. line items). */
const UNSIZED_LIST = 10;
/** Documents longer than this are not remembered (the parse cache holds what clients send again and again). */
const CACHEABLE_SOURCE = 20_000;
const CACHE_ENTRIES = 500;
/** Remembered costs per document, and the largest variables (as JSON) whose cost is remembered. */
const COSTS_PER_DOCUMENT = 200;
const COST_KEY_CHARS = 1000;
/** Pairs of same-named fields the spec's merging validation may compare (see field-merging.ts). */
const MAX_FIELD_MERGES = 2000;

/** A parsed document and what the spec's validation found wrong with it (empty: valid), or the syntax error. */
export type ParsedOperation = { document: DocumentNode; errors: readonly GraphQLError[] } | { syntaxError: GraphQLError };

export interface OperationGuard {
  readonly limits: OperationLimits;
  /** What a trusted document breaks of the depth and alias limits (the stored REST operations, at start-up). */
  staticProblems(document: DocumentNode): string[];
  /**
   * Parses a client's document under the token limit and validates it with the spec's rules plus depth and alias
   * limits (valid documents are cached by source text). Throws QueryTooComplex; syntax and validation errors are
   * returned for the transport to report its usual way.
   */
  parse(source: string): ParsedOperation;
  /** Per request: the operation's cost with these variables and the text rule; throws QueryTooComplex or InvalidInput. */
  check(document: DocumentNode, variables: unknown, operationName?: string | null): OperationTypeNode | undefined;
}

export function createOperationGuard(schema: GraphQLSchema, limits: OperationLimits = DEFAULT_LIMITS): OperationGuard {
  const refusal = (messages: string[]) => (_context: unknown, err: GraphQLError) => messages.push(err.message.replace(/^Syntax Error: /, ''));
  const rulesReporting = (messages: string[]): ValidationRule[] => [
    maxDepthRule({ n: limits.maxDepth, propagateOnRejection: false, onReject: [refusal(messages)] }),
    maxAliasesRule({ n: limits.maxAliases, propagateOnRejection: false, onReject: [refusal(messages)] }),
  ];
  const cache = new Map<string, DocumentNode>();
  /** Costs computed per document (a stored operation, a cached client document) and variables. */
  const costs = new WeakMap<DocumentNode, Map<string, number>>();

  /** Depth, aliases and field merging, checked before the spec's rules (whose merging rule is the costly one). */
  function staticProblems(document: DocumentNode): string[] {
    const merges = fieldMergeComparisons(document, MAX_FIELD_MERGES);
    if (merges > MAX_FIELD_MERGES) {
      return [`the same fields are selected too often in one place (over ${MAX_FIELD_MERGES} pairs to merge): select each field once`];
    }
    const refused: string[] = [];
    validate(schema, document, rulesReporting(refused));
    return refused;
  }

  function parse(source: string): ParsedOperation {
    const cached = cache.get(source);
    if (cached) return { document: cached, errors: [] };
    const refused: string[] = [];
    let document: DocumentNode;
    try {
      document = new MaxTokensParserWLexer(source, { n: limits.maxTokens, onReject: [refusal(refused)] }).parseDocument();
    } catch (err) {
      if (refused.length) throw new QueryTooComplex(`${refused[0]} (limit: ${limits.maxTokens} tokens)`);
      // The parser is recursive: lists or selections nested a few thousand deep, within the token limit, exhaust
      // the stack (a RangeError, which graphql-ws would report as its own internal error).
      if (!(err instanceof GraphQLError)) throw new QueryTooComplex('the document is nested too deeply to parse');
      return { syntaxError: err };
    }
    refused.push(...staticProblems(document));
    if (refused.length) throw new QueryTooComplex(refused.join(' '));
    const errors = validate(schema, document, specifiedRules);
    if (errors.length === 0 && source.length <= CACHEABLE_SOURCE) {
      if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
      cache.set(source, document);
    }
    return { document, errors };
  }

  /** The cost of a document with these variables; remembered when the variables are small plain JSON. */
  function costOf(document: DocumentNode, variables: unknown, operationName?: string | null): number {
    const compute = () =>
      getComplexity({
        schema,
        query: document,
        variables: isRecord(variables) ? variables : {},
        ...(operationName ? { operationName } : {}),
        estimators: [listSizeEstimator],
      });
    const key = costKey(variables, operationName);
    if (key === undefined) return compute();
    let known = costs.get(document);
    if (!known) costs.set(document, (known = new Map()));
    const hit = known.get(key);
    if (hit !== undefined) return hit;
    const cost = compute();
    if (known.size >= COSTS_PER_DOCUMENT) known.delete(known.keys().next().value!);
    known.set(key, cost);
    return cost;
  }

  function check(document: DocumentNode, variables: unknown, operationName?: string | null): OperationTypeNode | undefined {
    const problem = textProblem(variables, document);
    if (problem) throw InvalidInput.field(problem.field, problem.problem);
    const operation = getOperationAST(document, operationName ?? undefined);
    let cost: number;
    try {
      cost = costOf(document, variables, operationName);
    } catch {
      // Variables that do not coerce: execution reports them the usual way (nothing runs).
      return operation?.operation;
    }
    if (cost > limits.maxCost) {
      throw new QueryTooComplex(
        `query cost ${cost} is over the limit of ${limits.maxCost} (each object field counts 1, times the list sizes above it: ask for fewer items with first/limit, or fewer nested lists)`,
      );
    }
    return operation?.operation;
  }

  return { limits, staticProblems, parse, check };
}

/**
 * Cost of a field: each object resolved counts 1. A list of objects is its size times (1 + what each item selects);
 * the size is `first` or `limit` when the field takes one (the schema's default when omitted; at most the argument's
 * `@maxItems`, since the field refuses more with BAD_USER_INPUT naming the argument), the number of
 * `representations` (federation's `_entities`), and UNSIZED_LIST otherwise. A connection (an object taking `first`) multiplies what it selects by `first`, and its `edges`/`nodes`
 * then count each item once. Scalars and introspection are free.
 */
const listSizeEstimator: ComplexityEstimator = ({ field, args, childComplexity }) => {
  if (field.name.startsWith('__')) return 0;
  if (!isCompositeType(getNamedType(field.type))) return 0;
  // Federation's _entities returns one object per representation.
  const represented = Array.isArray(args.representations) ? args.representations.length : undefined;
  const sizeArg = ['first', 'limit'].find((name) => typeof args[name] === 'number');
  const sized = sizeArg ? Math.min(args[sizeArg] as number, maxItemsOf(field, sizeArg)) : represented;
  const size = sized === undefined ? undefined : Math.max(0, sized);
  if (!isListType(getNullableType(field.type))) return 1 + (size ?? 1) * childComplexity;
  if (size === undefined && CONNECTION_LISTS.has(field.name)) return 1 + childComplexity;
  return (size ?? UNSIZED_LIST) * (1 + childComplexity);
};
const CONNECTION_LISTS = new Set(['edges', 'nodes']);

const maxItemsByField = new WeakMap<GraphQLField<unknown, unknown>, Map<string, number>>();
/** The argument's `@maxItems(value:)` from the SDL, or Infinity when it has none. */
function maxItemsOf(field: GraphQLField<unknown, unknown>, argName: string): number {
  let byArg = maxItemsByField.get(field);
  if (!byArg) {
    byArg = new Map();
    for (const arg of field.args) {
      const value = arg.astNode?.directives?.find((d) => d.name.value === 'maxItems')?.arguments?.find((a) => a.name.value === 'value')?.value;
      if (value?.kind === Kind.INT) byArg.set(arg.name, Number(value.value));
    }
    maxItemsByField.set(field, byArg);
  }
  return byArg.get(argName) ?? Infinity;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The variables as a cache key, when they are a few plain JSON values (never files or other objects). */
function costKey(variables: unknown, operationName?: string | null): string | undefined {
  let budget = 64;
  const plain = (value: unknown): boolean => {
    if (--budget < 0) return false;
    if (value == null || typeof value === 'boolean' || typeof value === 'number') return true;
    if (typeof value === 'string') return value.length <= 200;
    if (Array.isArray(value)) return value.every(plain);
    if (typeof value !== 'object') return false;
    const proto = Object.getPrototypeOf(value);
    return (proto === Object.prototype || proto === null) && Object.values(value).every(plain);
  };
  if (variables !== undefined && !plain(variables)) return undefined;
  const key = `${operationName ?? ''}\u0000${JSON.stringify(variables ?? {})}`;
  return key.length <= COST_KEY_CHARS ? key : undefined;
}
