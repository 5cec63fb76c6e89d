import fc from 'fast-check';
import type { FuzzCase, FuzzContext } from './cases.ts';
import { Huge } from './wire.ts';

// graphql-ws frames that break the protocol (graphql-transport-ws): no or odd connection_init payloads, frames that
// are not JSON or not messages, duplicate ids, a second init, oversized frames. The server may close the socket
// (4400, 4401, 4403, 4409, 4429 …) but never with an internal error (4500, 1011).

const subscribe = (id: unknown, payload: unknown) => ({ json: { id, type: 'subscribe', payload } });
const viewer = { query: '{ viewer { name } }' };

export function wsProtocolCaseArb(ctx: FuzzContext): fc.Arbitrary<FuzzCase> {
  const good = { apiKey: ctx.keys.demo };
  const init = fc.oneof(
    { weight: 4, arbitrary: fc.constant<unknown>(good) },
    {
      weight: 3,
      arbitrary: fc.constantFrom<unknown>(
        undefined,
        null,
        'string',
        [],
        42,
        {},
        { apiKey: 123 },
        { apiKey: ['x'] },
        { apiKey: new Huge('a', 200_000) },
        { apiKey: 'pk_nope' },
        { authorization: `Bearer ${ctx.keys.demo}` },
        { authorization: 'Bearer' },
        { Authorization: { a: 1 } },
        { 'x-api-key': `${ctx.keys.demo}\u0000` },
      ),
    },
  );
  const frames = fc.oneof(
    fc.constantFrom<Array<{ json: unknown } | { raw: string | Huge }>>(
      [{ raw: 'not json' }],
      [{ raw: '' }],
      [{ raw: '{}' }],
      [{ raw: 'null' }],
      [{ raw: '[]' }],
      [{ json: { type: 'nope' } }],
      [{ json: { type: 'subscribe' } }],
      [{ json: { type: 'connection_init' } }],
      [{ json: { type: 'ping', payload: new Huge('p', 100_000) } }],
      [{ json: { type: 'pong' } }],
      [{ json: { type: 'complete', id: '9' } }],
      [{ json: { type: 'next', id: '1', payload: {} } }],
      [subscribe('1', viewer), subscribe('1', viewer)],
      [subscribe('', viewer)],
      [subscribe(1, viewer)],
      [subscribe(null, viewer)],
      [subscribe(new Huge('i', 100_000), viewer)],
      [subscribe('1', null)],
      [subscribe('1', 'query')],
      [subscribe('1', { query: 123 })],
      [subscribe('1', { query: '{ viewer { name } }', variables: [1] })],
      [subscribe('1', { query: '{ viewer { name } }', variables: 'x' })],
      [subscribe('1', { query: '{ viewer { name } }', operationName: 7 })],
      [subscribe('1', { query: '{ viewer { name } }', extensions: 'x' })],
      [subscribe('1', { query: 'subscription { serverTime(everyMs: 1) }' })],
      [subscribe('1', { query: 'subscription { serverTime(everyMs: 2147483647) }' })],
      [subscribe('1', { query: 'subscription { a: serverTime b: serverTime }' })],
      [subscribe('1', { query: 'mutation { deleteShapeProfile(name: "zz") }' })],
      [{ raw: new Huge('x', 2_000_000) }],
      [{ raw: `{"type":"subscribe","id":"1","payload":{"query":"${'{a'.repeat(50_000)}"}}` }],
    ),
    fc.array(
      fc.constantFrom(0, 1, 2, 3, 4, 5, 6, 7, 8, 9).map((i) => subscribe(String(i), { query: 'subscription { serverTime(everyMs: 250) }' })),
      { minLength: 2, maxLength: 40 },
    ),
  );
  return fc.tuple(init, frames).map(([i, f]): FuzzCase => ({ channel: 'ws', route: 'graphql-ws protocol', init: i, frames: f, listenMs: 150 }));
}
