import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { nextPayload, nextSink, sendNext } from '../../src/platform/http/next-message.ts';

// `next` messages are framed here and written to the socket's TCP connection. What a real ws client receives must
// be the message graphql-ws would have sent, for every frame length; a socket's messages of one turn leave together
// in one write when the turn ends — in order, nothing lost.

interface Pair {
  wss: WebSocketServer;
  server: WebSocket;
  client: WebSocket;
  received: string[];
  binary: boolean[];
}

async function pair(perMessageDeflate: boolean): Promise<Pair> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate });
  await new Promise((r) => wss.once('listening', r));
  const connected = new Promise<WebSocket>((r) => wss.once('connection', r));
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`, { perMessageDeflate });
  const received: string[] = [];
  const binary: boolean[] = [];
  client.on('message', (data, isBinary) => (received.push(String(data)), binary.push(isBinary)));
  const server = await connected;
  if (client.readyState !== WebSocket.OPEN) await new Promise((r) => client.once('open', r));
  return { wss, client, received, binary, server };
}

let plain: Pair;
let deflating: Pair;
beforeAll(async () => {
  plain = await pair(false);
  deflating = await pair(true);
});
afterAll(async () => {
  for (const p of [plain, deflating]) {
    p?.client.close();
    await new Promise((r) => p?.wss.close(r));
  }
});

function receivedAll(p: Pair, count: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const wait = () => (p.received.length >= count ? resolve() : setTimeout(wait, 5));
    wait();
  });
}
const expected = (id: string, payload: unknown) => JSON.stringify({ id, type: 'next', payload });

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

test('four messages in one turn leave in one write when the turn ends, in order', async () => {
  const tcp = (plain.server as unknown as { _socket: Socket })._socket;
  const seen = countWrites(tcp);
  const sink = nextSink(plain.server, 'sub-1');
  for (let n = 1; n <= 4; n++) void sendNext(sink, nextPayload(JSON.stringify({ data: { n } })));
  // Four frames (one buffer each) waiting for the end of the turn.
  expect(seen.writes).toEqual([]);
  await new Promise((r) => setImmediate(r));
  expect(seen.writes).toEqual([4]);
  await receivedAll(plain, 4);
  expect(plain.received.splice(0)).toEqual([1, 2, 3, 4].map((n) => expected('sub-1', { data: { n } })));
  expect(plain.binary.splice(0)).toEqual([false, false, false, false]);

  // The next turn starts afresh: its one message is one write.
  void sendNext(sink, nextPayload('{"data":{"n":5}}'));
  await new Promise((r) => setImmediate(r));
  expect(seen.writes).toEqual([4, 1]);
  await receivedAll(plain, 1);
  plain.received.splice(0);
  plain.binary.splice(0);
});

test('every frame length arrives as the same text: 7-bit, 16-bit and 64-bit lengths and their edges', async () => {
  // An id with characters JSON escapes and a multi-byte payload: lengths are counted in bytes, not characters.
  const id = 'sub "2" \\ é';
  const sink = nextSink(plain.server, id);
  const fixed = Buffer.byteLength(expected(id, { s: '' }));
  const lengths = [fixed, 125, 126, 127, 65_535, 65_536, 200_000];
  const payloads = lengths.map((total) => ({ s: 'ü'.repeat(Math.floor((total - fixed) / 2)) + 'x'.repeat((total - fixed) % 2) }));
  for (const [i, payload] of payloads.entries()) {
    expect(Buffer.byteLength(expected(id, payload))).toBe(lengths[i]);
    await sendNext(sink, nextPayload(JSON.stringify(payload)));
    await new Promise((r) => setImmediate(r));
  }
  await receivedAll(plain, payloads.length);
  expect(plain.received.splice(0)).toEqual(payloads.map((p) => expected(id, p)));
  expect(plain.binary.splice(0).every((b) => !b)).toBe(true);
});

test('with compression negotiated the messages go through ws, as text, in order', async () => {
  expect(deflating.server.extensions).toContain('permessage-deflate');
  const sink = nextSink(deflating.server, 'sub-3');
  const big = 'y'.repeat(5000);
  for (let n = 1; n <= 3; n++) void sendNext(sink, nextPayload(JSON.stringify({ data: { n, big } })));
  await receivedAll(deflating, 3);
  expect(deflating.received).toEqual([1, 2, 3].map((n) => expected('sub-3', { data: { n, big } })));
  expect(deflating.binary).toEqual([false, false, false]);
});

test('a socket that is not open drops the message', async () => {
  const p = await pair(false);
  p.server.close();
  expect(sendNext(nextSink(p.server, 'sub-4'), nextPayload('{}'))).toBeUndefined();
  await new Promise((r) => p.wss.close(r));
});

test('with 256 KB queued on a socket whose client stopped reading, a send waits until its frame is written', async () => {
  const p = await pair(false);
  const clientTcp = (p.client as unknown as { _socket: Socket })._socket;
  clientTcp.pause();
  const sink = nextSink(p.server, 'sub-5');
  const payload = nextPayload(JSON.stringify({ s: 'z'.repeat(64 * 1024) }));
  let sent = 0;
  let waiting: Promise<void> | undefined;
  while (!waiting && sent < 1000) {
    waiting = sendNext(sink, payload);
    sent++;
    await new Promise((r) => setImmediate(r));
  }
  expect(waiting).toBeInstanceOf(Promise);
  let written = false;
  void waiting!.then(() => (written = true));
  await new Promise((r) => setTimeout(r, 50));
  expect(written).toBe(false);
  clientTcp.resume();
  await waiting;
  await receivedAll(p, sent);
  expect(p.received).toHaveLength(sent);
  p.client.close();
  await new Promise((r) => p.wss.close(r));
});
