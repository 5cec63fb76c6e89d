import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

// graphql-ws builds every `next` message with JSON.stringify per socket: 1,000 sockets sharing one result
// serialized it 1,000 times. Here the payload is serialized once per share key and each socket's message is its
// subscription id around it — byte for byte what graphql-ws's stringifyMessage gives ({"id","type","payload"}, in
// that order), so the protocol is unchanged.

/** Where a shared subscription's results go: its socket and the id the client gave the subscription. */
export interface NextSink {
  socket: WebSocket;
  id: string;
}

/** Bytes a socket may have queued before its subscription waits for them to be written (a client not reading). */
const HIGH_WATER_BYTES = 256 * 1024;

/** The `next` message of subscription `id` whose payload serializes to `payloadJson`. */
export function nextMessage(id: string, payloadJson: string): string {
  return `{"id":${JSON.stringify(id)},"type":"next","payload":${payloadJson}}`;
}

/**
 * Sends the message; resolves at once unless the socket has more than HIGH_WATER_BYTES queued, then when this one
 * is written. A subscription awaits it before taking its next event, so a client that stops reading holds its
 * events in its own bounded queue (EventPubSub), not in the server's socket buffers. A closed socket drops it,
 * as graphql-ws's own `ws` binding does.
 */
export function sendNext(sink: NextSink, message: string): Promise<void> | undefined {
  const { socket } = sink;
  if (socket.readyState !== socket.OPEN) return undefined;
  coalesce(socket);
  if (socket.bufferedAmount < HIGH_WATER_BYTES) {
    socket.send(message);
    return undefined;
  }
  return new Promise((resolve) => socket.send(message, () => resolve()));
}

// At most two writes per socket per turn of the event loop, not one per message: a socket's first message of a turn
// leaves at once (a single event's latency is unchanged); later ones of the same turn (several events of its
// partner read in one pass of the outbox, as when the server falls behind) wait and leave together in one writev
// when the turn ends. A loopback writev cost ~20 µs on this machine, more than all the rest of a message. ws has no
// public cork; its sender corks the TCP socket around each frame, and an outer cork is counted, so its frames wait.
let sentThisTurn = new Set<WebSocket>();
let corked: Socket[] = [];

function coalesce(socket: WebSocket): void {
  if (sentThisTurn.size === 0) setImmediate(endTurn);
  if (!sentThisTurn.has(socket)) {
    sentThisTurn.add(socket);
    return;
  }
  const tcp = (socket as unknown as { _socket?: Socket })._socket;
  if (!tcp || tcp.writableCorked > 0) return;
  tcp.cork();
  corked.push(tcp);
}

function endTurn(): void {
  const sockets = corked;
  corked = [];
  sentThisTurn = new Set();
  for (const tcp of sockets) tcp.uncork();
}
