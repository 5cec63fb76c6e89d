import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let apiKey: string;
const clients: Client[] = [];

beforeAll(async () => {
  t = await startTestApp();
  ({ apiKey } = await t.createPartner());
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await t?.close();
});

function client(connectionParams?: Record<string, unknown>): { client: Client; closed: Promise<{ code: number; reason: string }> } {
  let onClosed!: (e: { code: number; reason: string }) => void;
  const closed = new Promise<{ code: number; reason: string }>((r) => (onClosed = r));
  const c = createClient({
    url: `${t.base.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
    lazy: false,
    on: { closed: (e) => onClosed({ code: (e as WebSocket.CloseEvent).code, reason: String((e as WebSocket.CloseEvent).reason) }) },
    onNonLazyError: () => {},
  });
  clients.push(c);
  return { client: c, closed };
}

/** Collects `count` results of a subscription, then unsubscribes. */
async function take(c: Client, query: string, count: number, variables?: Record<string, unknown>): Promise<any[]> {
  const results: any[] = [];
  const iterator = c.iterate({ query, variables });
  for await (const result of iterator) {
    results.push(result);
    if (results.length === count || result.errors) break;
  }
  return results;
}

describe('graphql-ws on /graphql', () => {
  test('an authenticated client (apiKey in connectionParams) receives serverTime events', async () => {
    const { client: c } = client({ apiKey });
    const started = Date.now();
    const events = await take(c, 'subscription { serverTime(everyMs: 250) }', 3);
    expect(events).toHaveLength(3);
    const times = events.map((e) => Date.parse(e.data.serverTime));
    for (const time of times) expect(Math.abs(time - started)).toBeLessThan(10_000);
    expect(times[2]! - times[0]!).toBeGreaterThanOrEqual(400);
  });

  test('authorization: Bearer <key> in connectionParams is accepted too', async () => {
    const { client: c } = client({ authorization: `Bearer ${apiKey}` });
    const events = await take(c, 'subscription { serverTime(everyMs: 250) }', 1);
    expect(events[0].data.serverTime).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  test('queries work over the socket with the connection’s partner', async () => {
    const { client: c } = client({ apiKey });
    const [result] = await take(c, '{ viewer { keyPrefix } }', 1);
    expect(result.data.viewer.keyPrefix).toBe(apiKey.slice(0, 11));
  });

  test('argument validation errors arrive as GraphQL errors with a code', async () => {
    const { client: c } = client({ apiKey });
    const [result] = await take(c, 'subscription { serverTime(everyMs: 5) }', 1);
    expect(result.errors[0]).toMatchObject({ message: 'everyMs must be an integer from 250 to 60000', extensions: { code: 'BAD_USER_INPUT' } });
  });

  test('a variable that does not coerce is BAD_USER_INPUT, as over HTTP (not a masked internal error)', async () => {
    const { client: c } = client({ apiKey });
    const [result] = await take(c, 'subscription($ms: Int) { serverTime(everyMs: $ms) }', 1, { ms: 'soon' });
    expect(result.errors[0]).toMatchObject({
      message: expect.stringMatching(/^Variable "\$ms" got invalid value "soon"/),
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const [query] = await take(c, 'query($id: UUID!) { invoice(id: $id) { id } }', 1, { id: 'nope' });
    expect(query.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
  });

  test.each(['next', 'error', 'connection_ack'])('a client sending a server’s %s message is closed with 4400, not 4500', async (type) => {
    const socket = new WebSocket(`${t.base.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise((resolve) => socket.on('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { apiKey } }));
    await new Promise((resolve) => socket.once('message', resolve));
    socket.send(JSON.stringify(type === 'connection_ack' ? { type } : { type, id: '1', payload: type === 'error' ? [{ message: 'x' }] : {} }));
    expect(await closed).toBe(4400);
  });

  test.each([
    ['no connectionParams', undefined],
    ['an unknown key', { apiKey: `pk_${'B'.repeat(32)}` }],
    ['a malformed key', { apiKey: 'hello' }],
  ])('a connection with %s is refused (4403)', async (_name, params) => {
    const { closed } = client(params);
    const { code } = await closed;
    expect(code).toBe(4403);
  });
});
