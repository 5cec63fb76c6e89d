import { afterEach, expect, test } from 'vitest';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../helpers/app.ts';

// Open graphql-ws connections are pinged every WS_KEEPALIVE_MS; one that has not answered a ping by the next is
// closed (graphql-ws's keep-alive, given the configured interval).

const apps: TestApp[] = [];
const sockets: WebSocket[] = [];
afterEach(async () => {
  sockets.splice(0).forEach((s) => s.terminate());
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

/** A graphql-transport-ws connection acknowledged by the server; `autoPong: false` leaves the server's pings unanswered. */
async function acknowledged(t: TestApp, apiKey: string, autoPong: boolean): Promise<{ socket: WebSocket; pings: number[]; closed: Promise<number> }> {
  const socket = new WebSocket(`${t.base.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { autoPong });
  sockets.push(socket);
  const pings: number[] = [];
  socket.on('ping', () => pings.push(Date.now()));
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
  await new Promise<void>((resolve, reject) => {
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { apiKey } })));
    socket.on('message', (data) => (JSON.parse(String(data)) as { type: string }).type === 'connection_ack' && resolve());
    socket.on('error', reject);
  });
  return { socket, pings, closed };
}

test('WS_KEEPALIVE_MS: the server pings each open connection that often and closes one that stops answering', async () => {
  const t = await startTestApp({ env: { WS_KEEPALIVE_MS: '1000' } });
  apps.push(t);
  const { apiKey } = await t.createPartner();
  const started = Date.now();
  const answering = await acknowledged(t, apiKey, true);
  const silent = await acknowledged(t, apiKey, false);
  const silentClosedAt = await silent.closed;
  // Pinged at ~1 s, not answered, closed at the next interval (~2 s).
  expect(silent.pings.length).toBeGreaterThanOrEqual(1);
  expect(silentClosedAt - started).toBeGreaterThan(1500);
  expect(silentClosedAt - started).toBeLessThan(6000);
  // The connection that answers is pinged again and stays open.
  while (answering.pings.length < 2 && Date.now() - started < 8000) await new Promise((r) => setTimeout(r, 100));
  expect(answering.pings.length).toBeGreaterThanOrEqual(2);
  expect(answering.socket.readyState).toBe(WebSocket.OPEN);
});
