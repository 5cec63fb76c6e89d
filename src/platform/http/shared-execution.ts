import { createSourceEventStream, type ExecutionArgs, type ExecutionResult, execute } from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import type { Principal } from '../auth/authenticate.ts';
import { canPush, PUSH } from '../events/pubsub.ts';
import { type NextSink, nextPayload, sendNext } from './next-message.ts';

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
/** What a subscriber's socket is sent for a result: graphql-ws's `onNext` (formats errors); JSON-serializable. */
type FormatResult = (result: ExecutionResult) => unknown;

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

export function createSharedExecution(format: FormatResult) {
  // Keyed by the event object itself, which the pub/sub hands to every subscriber: an entry lives as long as some
  // subscriber's queue still holds the event, and no eviction is needed.
  const results = new WeakMap<object, Map<string, PromiseOrValue<Buffer>>>();
  const marks = new WeakMap<object, { key: string; sink: NextSink }>();

  /** The event's result as the payload of a `next` message, serialized and encoded. */
  function payloadOf(args: ExecutionArgs, event: unknown): PromiseOrValue<Buffer> {
    const result = execute({ ...args, rootValue: event });
    return result instanceof Promise ? result.then((r) => nextPayload(JSON.stringify(format(r)))) : nextPayload(JSON.stringify(format(result)));
  }
  /** The same, computed once per event and share key. */
  function sharedPayloadOf(args: ExecutionArgs, key: string, event: unknown): PromiseOrValue<Buffer> {
    if (typeof event !== 'object' || event === null) return payloadOf(args, event);
    let byKey = results.get(event);
    if (!byKey) results.set(event, (byKey = new Map()));
    let payload = byKey.get(key);
    if (payload === undefined) byKey.set(key, (payload = payloadOf(args, event)));
    return payload;
  }

  return {
    /**
     * Marks an operation's context (built per subscriber) with its share key and its socket; unmarked operations
     * are not shared and go through graphql-ws as usual.
     */
    mark(contextValue: object, key: string, sink: NextSink): void {
      marks.set(contextValue, { key, sink });
    },
    /**
     * graphql-ws's `subscribe`: graphql-js's own, except that for a marked operation each event is executed and
     * serialized once per share key and its `next` message written to the socket here; the iterator handed to
     * graphql-ws yields nothing and ends when the source ends, so graphql-ws still completes, errors and closes.
     */
    async subscribe(args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
      const source = await createSourceEventStream(args);
      if (!(Symbol.asyncIterator in source)) return source;
      const mark = typeof args.contextValue === 'object' && args.contextValue !== null ? marks.get(args.contextValue) : undefined;
      const events = source[Symbol.asyncIterator]();
      if (!mark) return mapEvents(events, (event) => execute({ ...args, rootValue: event }));
      return writeEvents(events, (event) => {
        const payload = sharedPayloadOf(args, mark.key, event);
        if (!(payload instanceof Promise)) return sendNext(mark.sink, payload);
        return payload.then((bytes) => sendNext(mark.sink, bytes));
      });
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

/**
 * Takes events from the source and hands each to `write` until the source ends; `next()` resolves only then (done),
 * so graphql-ws awaits it as it would a quiet subscription. Ending it (`return`) ends the source at once. A source
 * that can push (EventPubSub's) calls `write` as each event is published; any other is pulled.
 */
function writeEvents(source: AsyncIterator<unknown>, write: (event: unknown) => PromiseOrValue<void>): AsyncIterableIterator<ExecutionResult> {
  const done = { done: true, value: undefined } as const;
  return {
    async next() {
      if (canPush(source)) {
        await source[PUSH]((event) => write(event) ?? undefined);
        return done;
      }
      for (;;) {
        const step = await source.next();
        if (step.done) return done;
        const writing = write(step.value);
        if (writing) await writing;
      }
    },
    return: async () => (source.return && (await source.return()), done),
    throw: async (error?: unknown) => {
      if (source.throw) return (await source.throw(error), done);
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
