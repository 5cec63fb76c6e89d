import { createSourceEventStream, type ExecutionArgs, type ExecutionResult, execute } from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import type { Principal } from '../auth/authenticate.ts';

// graphql-js runs a subscription's document once per subscriber per event: 1,000 sockets of one partner on one
// `invoiceEvents` document executed it 1,000 times for every invoice. Here the result is computed once per event
// for each share key and handed to every subscriber with that key.
//
// Why it cannot leak: each subscriber keeps its own source stream, authorized and filtered by its own resolver
// (scope, its partner's tenants, a session's store), so which events reach a socket is unchanged; only the
// execution of an event it already receives is shared, and only with subscribers of the same credential identity
// (partner, key or signed-in user, tenant, store, scopes, tier), the same document text, operation and variables —
// everything a resolver could read to produce a different result.

type PromiseOrValue<T> = T | Promise<T>;

/** What must be equal for two subscribers to receive the same result for the same event. */
export function shareKey(principal: Principal, payload: SubscribePayload): string {
  const who = [
    principal.partner.id,
    principal.partner.tier,
    principal.partner.legacyPlan,
    principal.keyId,
    principal.defaultTenantId,
    principal.session?.userId ?? null,
    principal.session?.tenantId ?? null,
    principal.session?.storeId ?? null,
    [...principal.scopes].sort(),
  ];
  return JSON.stringify([who, payload.query, payload.operationName ?? null, payload.variables ?? {}]);
}

export function createSharedExecution() {
  // Keyed by the event object itself, which the pub/sub hands to every subscriber: an entry lives as long as some
  // subscriber's queue still holds the event, and no eviction is needed.
  const results = new WeakMap<object, Map<string, PromiseOrValue<ExecutionResult>>>();
  const keys = new WeakMap<object, string>();

  function resultFor(args: ExecutionArgs, key: string | undefined, event: unknown): PromiseOrValue<ExecutionResult> {
    if (key === undefined || typeof event !== 'object' || event === null) return execute({ ...args, rootValue: event });
    let byKey = results.get(event);
    if (!byKey) results.set(event, (byKey = new Map()));
    let result = byKey.get(key);
    if (result === undefined) byKey.set(key, (result = execute({ ...args, rootValue: event })));
    return result;
  }

  return {
    /** Marks an operation's context (built per subscriber) with its share key; unmarked operations are not shared. */
    mark(contextValue: object, key: string): void {
      keys.set(contextValue, key);
    },
    /** graphql-ws's `subscribe`: graphql-js's own, with the per-event execution shared. */
    async subscribe(args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
      const source = await createSourceEventStream(args);
      if (!(Symbol.asyncIterator in source)) return source;
      const key = typeof args.contextValue === 'object' && args.contextValue !== null ? keys.get(args.contextValue) : undefined;
      return mapEvents(source[Symbol.asyncIterator](), (event) => resultFor(args, key, event));
    },
  };
}
export type SharedExecution = ReturnType<typeof createSharedExecution>;

/** The source iterator with each value mapped; ending it (`return`) ends the source at once. */
function mapEvents(source: AsyncIterator<unknown>, map: (event: unknown) => PromiseOrValue<ExecutionResult>): AsyncIterableIterator<ExecutionResult> {
  const mapped = async (step: IteratorResult<unknown>): Promise<IteratorResult<ExecutionResult>> =>
    step.done ? { done: true, value: undefined } : { done: false, value: await map(step.value) };
  return {
    next: () => source.next().then(mapped),
    return: async () => (source.return ? mapped(await source.return()) : { done: true, value: undefined }),
    throw: async (error?: unknown) => {
      if (source.throw) return mapped(await source.throw(error));
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
