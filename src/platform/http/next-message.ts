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
  if (socket.bufferedAmount < HIGH_WATER_BYTES) {
    socket.send(message);
    return undefined;
  }
  return new Promise((resolve) => socket.send(message, () => resolve()));
}
