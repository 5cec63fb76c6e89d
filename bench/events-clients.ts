// The client side of `bench/events.ts`, in its own process (forked by it) so the server's figures — CPU, event
// loop delay, RSS — are the server's alone. It opens the graphql-ws subscribers, notes when each event arrives,
// and runs the loopback webhook receiver. Times are process.hrtime (CLOCK_MONOTONIC), which both processes share.
//
// Messages from the parent:          replies:
//   {connect, url, groups}           (none: the parent counts live subscriptions on the server)
//   {count}                          {count, received}
//   {report, sent: {id: [t0, group]}} {report, samples, p50, p99, max, foreign, missing}  (then forgets the receipts)
//   {receiver}                       {receiver, port}
//   {disconnect}                     (none: the parent watches the server's count fall to 0)
//   {deliveries}                     {deliveries, delivered, firstAt, lastAt}
//   {close}                          process exits

import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';

type Msg = Record<string, any>;
const now = () => Number(process.hrtime.bigint()) / 1e6;
const send = (m: Msg) => process.send!(m);
const pct = (xs: Float64Array, p: number) => xs[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))] ?? NaN;

const sockets: Subscriber[] = [];
// One entry per message received: which group's subscriber got which invoice, when.
let groups: number[] = [];
let ids: string[] = [];
let times: number[] = [];
let delivered = 0;
let lastDeliveryAt = 0;
let firstDeliveryAt = 0;
let receiver: http.Server | undefined;

/**
 * One socket per subscriber, speaking graphql-ws' protocol (graphql-transport-ws) itself: connection_init with the
 * key, subscribe once acknowledged, every `next` noted, pings answered. Not graphql-ws' client: its bookkeeping per
 * message (an emitter, message validation, lazy connection and retry state) made this process the heavier of the two
 * on the shared cores, and the receipts it delayed counted as the server's latency (docs/decisions.md, "Live events
 * at scale"). Since 6 Dec not `ws` either (see `Subscriber`). The test suite runs graphql-ws' own client against the
 * server.
 */
function connect(url: string, plan: { apiKey: string; count: number; query: string }[]): void {
  const target = new URL(url);
  plan.forEach(({ apiKey, count, query }, group) => {
    for (let i = 0; i < count; i++) {
      const subscriber = new Subscriber(target, (message) => {
        const m = JSON.parse(message) as { type: string; payload?: any };
        if (m.type === 'next') {
          groups.push(group);
          ids.push(m.payload?.data?.invoiceEvents?.invoice?.id ?? '?');
          times.push(now());
        } else if (m.type === 'connection_ack') subscriber.send({ id: '1', type: 'subscribe', payload: { query } });
        else if (m.type === 'ping') subscriber.send({ type: 'pong' });
        else if (m.type === 'error') console.error('subscriber error', m.payload);
      });
      subscriber.onOpen = () => subscriber.send({ type: 'connection_init', payload: { apiKey } });
      sockets.push(subscriber);
    }
  });
}

const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/**
 * A WebSocket client (RFC 6455) on a plain TCP socket, as small as a subscriber needs: the opening handshake (the
 * server's 101, its Sec-WebSocket-Accept for our key and the graphql-transport-ws subprotocol are checked), text
 * messages in both directions (ours masked, as clients must), ping frames answered, the closing handshake. `ws`'s
 * client parsed every frame through a Writable stream and an emitter per socket: with 50,000 messages a second it
 * kept this process ~85% busy on a core the server needs too.
 */
class Subscriber {
  onOpen: () => void = () => {};
  private readonly socket: net.Socket;
  private readonly accept: string;
  private pending: Buffer | undefined;
  private open = false;
  private closing = false;

  constructor(
    private readonly url: URL,
    private readonly onMessage: (text: string) => void,
  ) {
    const key = randomBytes(16).toString('base64');
    this.accept = createHash('sha1')
      .update(key + WS_GUID)
      .digest('base64');
    this.socket = net.connect({ host: url.hostname, port: Number(url.port) });
    this.socket.setNoDelay(true);
    this.socket.once('connect', () =>
      this.socket.write(
        `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n`,
      ),
    );
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('error', (err) => console.error('subscriber socket error', err));
    this.socket.on('close', () => this.closing || console.error(`subscriber ${this.url.host} closed without a close frame`));
  }

  send(message: object): void {
    if (this.open && !this.closing) this.socket.write(clientFrame(0x1, Buffer.from(JSON.stringify(message))));
  }

  /** Starts the closing handshake with code 1000; the server answers and closes the connection. */
  close(): void {
    if (!this.open || this.closing) return void this.socket.destroy();
    this.closing = true;
    this.socket.write(clientFrame(0x8, Buffer.from([0x03, 0xe8])));
  }

  terminate(): void {
    this.closing = true;
    this.socket.destroy();
  }

  private read(chunk: Buffer): void {
    const data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    let at = 0;
    if (!this.open) {
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return void (this.pending = data);
      const problem = this.handshakeProblem(data.toString('latin1', 0, end));
      if (problem) return this.fail(problem);
      this.open = true;
      at = end + 4;
      this.onOpen();
    }
    while (data.length - at >= 2) {
      const first = data[at]!;
      const second = data[at + 1]!;
      let length = second & 0x7f;
      let head = 2;
      if (length === 126) {
        if (data.length - at < 4) break;
        length = data.readUInt16BE(at + 2);
        head = 4;
      } else if (length === 127) {
        if (data.length - at < 10) break;
        length = Number(data.readBigUInt64BE(at + 2));
        head = 10;
      }
      if (data.length - at < head + length) break;
      const payload = data.subarray(at + head, at + head + length);
      at += head + length;
      // A server never masks, and this one never fragments a message (a final frame each).
      if (second & 0x80 || !(first & 0x80)) return this.fail('masked or fragmented frame from the server');
      const opcode = first & 0x0f;
      if (opcode === 0x1) this.onMessage(payload.toString());
      else if (opcode === 0x9) this.socket.write(clientFrame(0xa, payload));
      else if (opcode === 0x8) {
        const code = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
        if (code !== 1000 && code !== 1005) console.error(`subscriber closed ${code} ${payload.toString('utf8', 2)}`);
        if (!this.closing) this.socket.write(clientFrame(0x8, payload.subarray(0, 2)));
        this.closing = true;
        this.socket.end();
        return;
      } else if (opcode !== 0xa) return this.fail(`unexpected opcode ${opcode}`);
    }
    if (at < data.length) this.pending = data.subarray(at);
  }

  private handshakeProblem(head: string): string | undefined {
    const [status, ...lines] = head.split('\r\n');
    if (!/^HTTP\/1\.1 101 /.test(status ?? '')) return `handshake refused: ${status}`;
    const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).trim().toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    if (headers.get('sec-websocket-accept') !== this.accept) return 'handshake: wrong Sec-WebSocket-Accept';
    if (headers.get('sec-websocket-protocol') !== 'graphql-transport-ws') return 'handshake: graphql-transport-ws not accepted';
    return undefined;
  }

  private fail(problem: string): void {
    console.error(`subscriber: ${problem}`);
    this.terminate();
  }
}

/** A final frame from a client (RFC 6455 §5.2): masked with a random key, as every client frame must be. */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  if (length >= 65536) throw new Error('message too long for this client');
  const head = length < 126 ? 2 : 4;
  const frame = Buffer.allocUnsafe(head + 4 + length);
  frame[0] = 0x80 | opcode;
  if (length < 126) frame[1] = 0x80 | length;
  else {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(length, 2);
  }
  const mask = randomBytes(4);
  mask.copy(frame, head);
  for (let i = 0; i < length; i++) frame[head + 4 + i] = payload[i]! ^ mask[i & 3]!;
  return frame;
}

/** Latency of every receipt of the given events, and receipts of events written for another group (never allowed). */
function report(sent: Record<string, [number, number]>, expected: number): Msg {
  const latencies: number[] = [];
  let foreign = 0;
  for (let i = 0; i < ids.length; i++) {
    const s = sent[ids[i]!];
    if (!s) continue;
    if (s[1] !== groups[i]) foreign++;
    else latencies.push(times[i]! - s[0]);
  }
  const sorted = Float64Array.from(latencies).sort();
  groups = [];
  ids = [];
  times = [];
  return {
    type: 'report',
    samples: sorted.length,
    p50: pct(sorted, 50),
    p99: pct(sorted, 99),
    max: sorted.at(-1) ?? NaN,
    foreign,
    missing: expected - sorted.length,
  };
}

function startReceiver(): void {
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.headers['webhook-signature']) delivered++;
      lastDeliveryAt = now();
      firstDeliveryAt ||= lastDeliveryAt;
      res.end('ok');
    });
  });
  receiver.listen(0, '127.0.0.1', () => send({ type: 'receiver', port: (receiver!.address() as AddressInfo).port }));
}

process.on('message', (m: Msg) => {
  if (m.type === 'connect') connect(m.url, m.groups);
  else if (m.type === 'count') send({ type: 'count', received: ids.length });
  else if (m.type === 'report') send(report(m.sent, m.expected));
  else if (m.type === 'receiver') startReceiver();
  else if (m.type === 'cpu') send({ type: 'cpu', ...process.cpuUsage() });
  else if (m.type === 'deliveries') send({ type: 'deliveries', delivered, firstAt: firstDeliveryAt, lastAt: lastDeliveryAt });
  else if (m.type === 'disconnect') for (const subscriber of sockets.splice(0)) subscriber.close();
  else if (m.type === 'close') {
    receiver?.close();
    for (const subscriber of sockets) subscriber.terminate();
    process.exit(0);
  }
});
