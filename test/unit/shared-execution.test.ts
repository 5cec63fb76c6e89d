import { buildSchema, type ExecutionResult, parse } from 'graphql';
import { MessageType, stringifyMessage } from 'graphql-ws';
import { expect, test } from 'vitest';
import type { WebSocket } from 'ws';
import type { Principal } from '../../src/platform/auth/authenticate.ts';
import type { DomainEvent } from '../../src/platform/events/domain-event.ts';
import { EventPubSub } from '../../src/platform/events/pubsub.ts';
import { nextSink } from '../../src/platform/http/next-message.ts';
import { createSharedExecution, shareKey } from '../../src/platform/http/shared-execution.ts';

const principal = (over: Partial<Principal> = {}): Principal => ({
  keyId: 'k1',
  keyPrefix: 'pk_aaaaaaaa',
  scopes: new Set(['invoices:read', 'read']),
  partner: { id: 'p1', name: 'P', tier: 'storage', legacyPlan: null },
  defaultTenantId: 't1',
  ...over,
});

test('the share key differs whenever who is asking or what is asked differs', () => {
  const q = { query: 'subscription { x }' };
  const base = shareKey(principal(), q);
  expect(shareKey(principal({ scopes: new Set(['read', 'invoices:read']) }), q)).toBe(base);
  for (const other of [
    shareKey(principal({ partner: { id: 'p2', name: 'P', tier: 'storage', legacyPlan: null } }), q),
    shareKey(principal({ keyId: 'k2' }), q),
    shareKey(principal({ scopes: new Set(['read']) }), q),
    shareKey(principal({ session: { userId: 'u', tenantId: 't1', storeId: null } }), q),
    shareKey(principal({ session: { userId: 'u', tenantId: 't1', storeId: 's1' } }), q),
    shareKey(principal(), { query: 'subscription { x }', variables: { a: 1 } }),
    shareKey(principal(), { query: 'subscription { y }' }),
  ])
    expect(other).not.toBe(base);
});

/**
 * A socket that records what it is sent; `buffered` bytes make it hold each send's callback until `flush()`. It has
 * no TCP connection to write frames to, so messages go through its `send` (as with compression negotiated).
 */
function fakeSocket(buffered = 0) {
  const sent: string[] = [];
  const held: (() => void)[] = [];
  const socket = {
    OPEN: 1,
    readyState: 1,
    bufferedAmount: buffered,
    send(data: Buffer, options: { binary: boolean }, cb?: () => void) {
      expect(options.binary).toBe(false);
      sent.push(String(data));
      if (cb) held.push(cb);
    },
  };
  return { socket: socket as unknown as WebSocket, sent, flush: () => held.splice(0).forEach((cb) => cb()) };
}

function tickSchema(events: object[], onExecute: () => void) {
  const schema = buildSchema('type Query { x: Int } type Subscription { tick: Int }');
  const fields = schema.getSubscriptionType()!.getFields().tick as any;
  fields.subscribe = () => ({
    async *[Symbol.asyncIterator]() {
      yield* events;
    },
  });
  fields.resolve = (e: { n: number }) => (onExecute(), e.n);
  return schema;
}

test('subscribers with one share key get one execution and one serialization per event; another key gets its own', async () => {
  let executions = 0;
  let formats = 0;
  const events = [{ n: 1 }, { n: 2 }];
  const schema = tickSchema(events, () => executions++);
  const shared = createSharedExecution((r) => (formats++, r));
  const run = async (key: string, id: string) => {
    const { socket, sent } = fakeSocket();
    const contextValue = {};
    shared.mark(contextValue, key, nextSink(socket, id));
    const stream = (await shared.subscribe({ schema, document: parse('subscription { tick }'), contextValue })) as AsyncIterableIterator<ExecutionResult>;
    // Nothing is yielded to graphql-ws: the messages were written to the socket, and the stream ends with its source.
    expect(await stream.next()).toEqual({ done: true, value: undefined });
    return sent;
  };
  const a1 = await run('a', 'one');
  const a2 = await run('a', 'two"\\');
  const b = await run('b', 'one');
  expect(executions).toBe(4); // 2 events × 2 keys
  expect(formats).toBe(4);
  // Byte for byte what graphql-ws would have sent for each subscription id.
  const expected = (id: string) => events.map((e) => stringifyMessage({ id, type: MessageType.Next, payload: { data: { tick: e.n } } }));
  expect(a1).toEqual(expected('one'));
  expect(a2).toEqual(expected('two"\\'));
  expect(b).toEqual(expected('one'));
  expect(JSON.parse(a2[0]!)).toEqual({ id: 'two"\\', type: 'next', payload: { data: { tick: 1 } } });
});

test('a socket with a full buffer gets its next event only once the last one was written', async () => {
  const events = [{ n: 1 }, { n: 2 }, { n: 3 }];
  const shared = createSharedExecution((r) => r);
  const { socket, sent, flush } = fakeSocket(1024 * 1024);
  const contextValue = {};
  shared.mark(contextValue, 'k', nextSink(socket, '1'));
  const stream = (await shared.subscribe({
    schema: tickSchema(events, () => {}),
    document: parse('subscription { tick }'),
    contextValue,
  })) as AsyncIterableIterator<ExecutionResult>;
  const ended = stream.next();
  await new Promise((r) => setTimeout(r, 20));
  expect(sent).toHaveLength(1);
  flush();
  await new Promise((r) => setTimeout(r, 20));
  expect(sent).toHaveLength(2);
  (socket as { bufferedAmount: number }).bufferedAmount = 0;
  flush();
  expect(await ended).toEqual({ done: true, value: undefined });
  expect(sent).toHaveLength(3);
});

test('a closed socket is sent nothing, and an unmarked operation yields its results to graphql-ws as graphql-js does', async () => {
  const shared = createSharedExecution((r) => r);
  const { socket, sent } = fakeSocket();
  (socket as { readyState: number }).readyState = 3;
  const marked = {};
  shared.mark(marked, 'k', nextSink(socket, '1'));
  const schema = tickSchema([{ n: 7 }], () => {});
  const closed = (await shared.subscribe({ schema, document: parse('subscription { tick }'), contextValue: marked })) as AsyncIterableIterator<ExecutionResult>;
  expect(await closed.next()).toEqual({ done: true, value: undefined });
  expect(sent).toEqual([]);
  const plain = (await shared.subscribe({ schema, document: parse('subscription { tick }'), contextValue: {} })) as AsyncIterableIterator<ExecutionResult>;
  expect((await plain.next()).value).toEqual({ data: { tick: 7 } });
});

test('from a source that pushes (EventPubSub), events are written as published, a full socket holds the rest in order', async () => {
  const bus = new EventPubSub();
  const schema = buildSchema('type Query { x: Int } type Subscription { tick: Int }');
  const field = schema.getSubscriptionType()!.getFields().tick!;
  field.subscribe = () => bus.subscribe(['t1'], () => true);
  field.resolve = (e: DomainEvent) => e.data.n;
  const shared = createSharedExecution((r) => r);
  const { socket, sent, flush } = fakeSocket(1024 * 1024);
  const contextValue = {};
  shared.mark(contextValue, 'k', nextSink(socket, '1'));
  const stream = (await shared.subscribe({ schema, document: parse('subscription { tick }'), contextValue })) as AsyncIterableIterator<ExecutionResult>;
  const ended = stream.next();
  const publish = (n: number) =>
    bus.publish({ seq: String(n), id: `e${n}`, type: 'invoice.created', tenantId: 't1', subjectId: 's', timestamp: new Date(0), data: { n } });
  publish(1);
  publish(2);
  publish(3);
  expect(sent.map((m) => JSON.parse(m).payload.data.tick)).toEqual([1]);
  flush();
  await new Promise((r) => setImmediate(r));
  expect(sent.map((m) => JSON.parse(m).payload.data.tick)).toEqual([1, 2]);
  (socket as { bufferedAmount: number }).bufferedAmount = 0;
  flush();
  await new Promise((r) => setImmediate(r));
  publish(4);
  expect(sent.map((m) => JSON.parse(m).payload.data.tick)).toEqual([1, 2, 3, 4]);
  await stream.return!();
  expect(await ended).toEqual({ done: true, value: undefined });
  expect(bus.subscribers).toBe(0);
});
