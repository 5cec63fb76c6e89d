// Live events are executed once per share key and the result handed to every subscriber with that key
// (src/platform/http/shared-execution.ts): partners sending the very same document must still only ever see their
// own events, and revoking a key must still close its sockets.
import { randomUUID } from 'node:crypto';
import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { appendEvent } from '../../src/platform/events/outbox.queries.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const QUERY = 'subscription { invoiceEvents(types: ["invoice.created"]) { tenantId invoice { id } } }';
let t: TestApp;
let a: { apiKey: string; tenantId: string };
let b: { apiKey: string; tenantId: string };
const clients: Client[] = [];

beforeAll(async () => {
  t = await startTestApp();
  a = await t.createPartner();
  b = await t.createPartner();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await t?.close();
});

/** A socket with one subscription to QUERY: the invoice ids it receives, and how the socket closed. */
function subscriber(apiKey: string) {
  const ids: string[] = [];
  let onClosed!: (code: number) => void;
  const closed = new Promise<number>((r) => (onClosed = r));
  const c = createClient({
    url: `${t.base.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { apiKey },
    retryAttempts: 0,
    on: { closed: (e) => onClosed((e as WebSocket.CloseEvent).code) },
  });
  clients.push(c);
  c.subscribe(
    { query: QUERY },
    { next: (r: any) => ids.push(`${r.data.invoiceEvents.tenantId}/${r.data.invoiceEvents.invoice.id}`), error: () => {}, complete: () => {} },
  );
  return { ids, closed };
}

async function write(tenantId: string): Promise<string> {
  const id = randomUUID();
  await appendEvent(t.database.db, tenantId, { type: 'invoice.created', subjectId: id, payload: { id, storeId: null } });
  t.app.services.events.written();
  return `${tenantId}/${id}`;
}

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 20));
}

test('two partners on the same document each get only their own events; revoking one closes only its sockets', async () => {
  const a1 = subscriber(a.apiKey);
  const a2 = subscriber(a.apiKey);
  const b1 = subscriber(b.apiKey);
  await until(() => t.app.services.events.subscribers === 3);

  const ofA = [await write(a.tenantId), await write(a.tenantId)];
  const ofB = [await write(b.tenantId)];
  // Each partner's last event arriving means everything written before it was offered to every socket.
  await until(() => a1.ids.length === 2 && a2.ids.length === 2 && b1.ids.length === 1);
  const lastOfA = await write(a.tenantId);
  const lastOfB = await write(b.tenantId);
  await until(() => a1.ids.includes(lastOfA) && a2.ids.includes(lastOfA) && b1.ids.includes(lastOfB));
  expect(a1.ids).toEqual([...ofA, lastOfA]);
  expect(a2.ids).toEqual([...ofA, lastOfA]);
  expect(b1.ids).toEqual([...ofB, lastOfB]);

  await t.app.services.partners.revokeApiKey(a.apiKey.slice(0, 11));
  expect(await a1.closed).toBe(4403);
  expect(await a2.closed).toBe(4403);
  await write(a.tenantId);
  const afterRevocation = await write(b.tenantId);
  await until(() => b1.ids.includes(afterRevocation));
  expect(b1.ids).toEqual([...ofB, lastOfB, afterRevocation]);
  expect(a1.ids).toEqual([...ofA, lastOfA]);
  expect(t.app.services.events.subscribers).toBe(1);
});
