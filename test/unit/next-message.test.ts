import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { nextMessage, sendNext } from '../../src/platform/http/next-message.ts';

// A socket's first `next` message of a turn is written at once; the later ones of the same turn leave together in
// one write when the turn ends — in order, and nothing lost.

let wss: WebSocketServer;
let server: WebSocket;
let client: WebSocket;
const received: string[] = [];

beforeAll(async () => {
  wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => wss.once('listening', r));
  const connected = new Promise<WebSocket>((r) => wss.once('connection', r));
  client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  client.on('message', (data) => received.push(String(data)));
  server = await connected;
});
afterAll(async () => {
  client?.close();
  await new Promise((r) => wss.close(r));
});

/** Counts the writes the server's TCP socket hands to the kernel (one per `_write` or `_writev` call). */
function countWrites(tcp: Socket): { writes: number[] } {
  const seen = { writes: [] as number[] };
  const t = tcp as unknown as { _write: (...a: any[]) => void; _writev: (...a: any[]) => void };
  const write = t._write.bind(tcp);
  const writev = t._writev.bind(tcp);
  t._write = (...a: any[]) => (seen.writes.push(1), write(...a));
  t._writev = (chunks: unknown[], cb: unknown) => (seen.writes.push(chunks.length), writev(chunks, cb));
  return seen;
}

test('four messages in one turn: the first written at once, the other three in one write, all in order', async () => {
  const tcp = (server as unknown as { _socket: Socket })._socket;
  const seen = countWrites(tcp);
  const sink = { socket: server, id: 'sub-1' };
  for (let n = 1; n <= 4; n++) void sendNext(sink, nextMessage('sub-1', JSON.stringify({ data: { n } })));
  // Three frames (header + payload each) still waiting for the end of the turn.
  expect(seen.writes).toHaveLength(1);
  await new Promise((r) => setImmediate(r));
  expect(seen.writes).toEqual([2, 6]);
  await new Promise<void>((resolve) => {
    const wait = () => (received.length >= 4 ? resolve() : setTimeout(wait, 5));
    wait();
  });
  expect(received.map((m) => JSON.parse(m))).toEqual([1, 2, 3, 4].map((n) => ({ id: 'sub-1', type: 'next', payload: { data: { n } } })));

  // The next turn starts afresh: its first message is written at once again.
  void sendNext(sink, nextMessage('sub-1', '{"data":{"n":5}}'));
  expect(seen.writes).toEqual([2, 6, 2]);
});
