import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

// graphql-ws builds every `next` message with JSON.stringify per socket and hands it to ws, which encodes the string
// and writes a frame header beside it. Here a shared result is serialized and encoded once per share key; each
// socket's message is its subscription's prefix (`{"id":…,"type":"next","payload":`, encoded when the subscription
// starts) around it, framed as one buffer and written in one call — byte for byte what graphql-ws's
// stringifyMessage and ws's Sender give, so the protocol is unchanged.

/** Where a shared subscription's results go: its socket and the id the client gave the subscription. */
export interface NextSink {
  socket: WebSocket;
  id: string;
  /** The message up to its payload, encoded. */
  prefix: Buffer;
  /** The socket's TCP connection when frames are written to it directly (see `plainTcp`). */
  tcp: Socket | undefined;
}

/** A subscription's sink; the socket's extensions are negotiated when it opens, before any subscription starts. */
export function nextSink(socket: WebSocket, id: string): NextSink {
  return { socket, id, prefix: Buffer.from(`{"id":${JSON.stringify(id)},"type":"next","payload":`), tcp: plainTcp(socket) };
}

/** A result as the rest of a `next` message after the sink's prefix: its JSON and the message's closing brace. */
export function nextPayload(payloadJson: string): Buffer {
  return Buffer.from(`${payloadJson}}`);
}

/** Bytes a socket may have queued before its subscription waits for them to be written (a client not reading). */
const HIGH_WATER_BYTES = 256 * 1024;

/**
 * Sends the message; resolves at once unless the socket has more than HIGH_WATER_BYTES queued, then when this one
 * is written. A subscription awaits it before taking its next event, so a client that stops reading holds its
 * events in its own bounded queue (EventPubSub), not in the server's socket buffers. A closed socket drops it,
 * as graphql-ws's own `ws` binding does.
 */
export function sendNext(sink: NextSink, payload: Buffer): Promise<void> | undefined {
  const { socket, tcp } = sink;
  if (socket.readyState !== socket.OPEN) return undefined;
  if (!tcp) {
    const message = Buffer.concat([sink.prefix, payload]);
    if (socket.bufferedAmount < HIGH_WATER_BYTES) return void socket.send(message, { binary: false });
    return new Promise((resolve) => socket.send(message, { binary: false }, () => resolve()));
  }
  coalesce(tcp);
  const frame = textFrame(sink.prefix, payload);
  // ws's bufferedAmount is this plus what its Sender holds back, which is nothing without compression.
  if (tcp.writableLength < HIGH_WATER_BYTES) return void tcp.write(frame);
  return new Promise((resolve) => tcp.write(frame, () => resolve()));
}

/**
 * The socket's TCP connection when frames may be written to it directly: ws's Sender writes an uncompressed text
 * frame to it at once, in call order, so a frame written here keeps its place among ws's own (pings, close). With
 * an extension negotiated (compression: the Sender may hold frames back) messages go through ws.
 */
function plainTcp(socket: WebSocket): Socket | undefined {
  if (socket.extensions !== '') return undefined;
  return (socket as unknown as { _socket?: Socket })._socket;
}

/** A final, unmasked text frame (RFC 6455 §5.2), as a server sends it, holding `head` then `body`. */
export function textFrame(head: Buffer, body: Buffer): Buffer {
  const length = head.length + body.length;
  const headerLength = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x81; // FIN, opcode 1 (text)
  if (length < 126) frame[1] = length;
  else if (length < 65536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    frame.writeUInt32BE(length >>> 0, 6);
  }
  head.copy(frame, headerLength);
  body.copy(frame, headerLength + head.length);
  return frame;
}

// One write per socket per turn of the event loop, not one per message: a socket's messages of a turn (the events of
// its partner read in one pass of the outbox; several when the server falls behind) wait in its cork and leave
// together in one write when the turn ends. A loopback write costs ~7-10 µs of kernel time on this machine, more than
// all the rest of a message. ws's own frames (pings) written meanwhile wait in the same cork, in order. Writing each
// socket's first message at once instead cost the rate phase of `npm run bench -- events` a third more at p99, for
// ~10 ms less at p99 when one event goes to 1,000 sockets (docs/decisions.md, "Live events at scale").
let corked: Socket[] = [];

function coalesce(tcp: Socket): void {
  if (tcp.writableCorked > 0) return;
  if (corked.length === 0) setImmediate(endTurn);
  tcp.cork();
  corked.push(tcp);
}

function endTurn(): void {
  const sockets = corked;
  corked = [];
  for (const tcp of sockets) tcp.uncork();
}
