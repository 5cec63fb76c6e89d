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
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';

type Msg = Record<string, any>;
const now = () => Number(process.hrtime.bigint()) / 1e6;
const send = (m: Msg) => process.send!(m);
const pct = (xs: Float64Array, p: number) => xs[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))] ?? NaN;

const sockets: WebSocket[] = [];
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
 * at scale"). The test suite runs graphql-ws' own client against the server.
 */
function connect(url: string, plan: { apiKey: string; count: number; query: string }[]): void {
  plan.forEach(({ apiKey, count, query }, group) => {
    for (let i = 0; i < count; i++) {
      const ws = new WebSocket(url, 'graphql-transport-ws');
      sockets.push(ws);
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { apiKey } })));
      ws.on('message', (data) => {
        const m = JSON.parse(String(data)) as { type: string; payload?: any };
        if (m.type === 'next') {
          groups.push(group);
          ids.push(m.payload?.data?.invoiceEvents?.invoice?.id ?? '?');
          times.push(now());
        } else if (m.type === 'connection_ack') ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
        else if (m.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
        else if (m.type === 'error') console.error('subscriber error', m.payload);
      });
      ws.on('close', (code, reason) => code !== 1000 && code !== 1005 && console.error(`subscriber closed ${code} ${String(reason)}`));
      ws.on('error', (err) => console.error('subscriber socket error', err));
    }
  });
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
  else if (m.type === 'disconnect') for (const ws of sockets.splice(0)) ws.close(1000);
  else if (m.type === 'close') {
    receiver?.close();
    for (const ws of sockets) ws.terminate();
    process.exit(0);
  }
});
