import { randomUUID } from 'node:crypto';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { makeInvoicePdf, produceInvoice } from '../fixtures/invoice-documents.ts';
import { gql, gqlData, http, onTestServer, startTestApp, type TestApp } from '../helpers/app.ts';

// Issue 47, point 5: every 5xx and every internal error is counted once in api_errors_total, whichever surface
// answered it. A service of the running app is replaced by one that throws a plain Error (what a database failure or
// a bug looks like), the surface is called over HTTP or graphql-ws, and /metrics must show exactly one more error.

let t: TestApp;
let apiKey: string;
let sessionCookie: string;
let documentUrl: string;

/** api_errors_total as `channel code` → value. */
async function errors(): Promise<Map<string, number>> {
  const text = await (await fetch(`${t.base}/metrics`)).text();
  const found = new Map<string, number>();
  for (const m of text.matchAll(/^api_errors_total\{channel="(\w+)",code="(\w+)"\} (\d+)$/gm)) found.set(`${m[1]} ${m[2]}`, Number(m[3]));
  return found;
}

/** What `provoke` added to api_errors_total while `method` of `service` throws a plain Error. */
async function counted<S extends object>(service: S, method: keyof S, provoke: () => Promise<unknown>): Promise<Record<string, number>> {
  const original = service[method];
  Object.assign(service, { [method]: () => Promise.reject(new Error('stubbed failure')) });
  const before = await errors();
  try {
    await provoke();
  } finally {
    Object.assign(service, { [method]: original });
  }
  const after = await errors();
  return Object.fromEntries([...after].filter(([k, v]) => v !== (before.get(k) ?? 0)).map(([k, v]) => [k, v - (before.get(k) ?? 0)]));
}

const ws = (headers: Record<string, string> = {}) =>
  new WebSocket(`${t.base.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { headers: { origin: t.base, ...headers } });

beforeAll(async () => {
  t = await startTestApp();
  ({ apiKey } = await t.createPartner({ tier: 'embed' }));
  const tenant = await http(t.base, 'POST', '/api/v1/partner/tenants', {
    headers: { 'x-api-key': apiKey },
    json: { name: 'Metrics Bistro', email: 'owner@metrics.example', maxLocations: 1 },
  });
  const store = await http(t.base, 'POST', `/api/v1/partner/tenants/${tenant.body.tenantId}/stores`, {
    headers: { 'x-api-key': apiKey },
    json: { externalStoreId: 'm-1', name: 'Harbor', timezone: 'America/New_York' },
  });
  expect(store.status).toBe(201);
  const embed = await http(t.base, 'POST', `/api/v1/partner/tenants/${tenant.body.tenantId}/embed/auth`, {
    headers: { 'x-api-key': apiKey },
    json: { email: 'cfo@metrics.example', name: 'Casey', role: 'cfo', externalStoreId: 'm-1' },
  });
  expect(embed.status, JSON.stringify(embed.body)).toBe(200);
  const open = await fetch(onTestServer(t.base, embed.body.data.embedUrl), { redirect: 'manual' });
  sessionCookie = open.headers.get('set-cookie')!.split(';')[0]!;
  const fd = new FormData();
  fd.set('file', new Blob([await makeInvoicePdf(produceInvoice)]), 'invoice.pdf');
  const upload = await http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: { 'x-api-key': apiKey }, body: fd });
  const { invoice } = await gqlData(t.base, apiKey, 'query($id: UUID!) { invoice(id: $id) { original { url } } }', { id: upload.body.id });
  documentUrl = onTestServer(t.base, invoice.original.url);
});
afterAll(() => t?.close());

describe('an internal error is counted once in api_errors_total, on every surface', () => {
  test('a REST route: 500 → rest INTERNAL_SERVER_ERROR', async () => {
    const delta = await counted(t.app.services.vendors, 'list', async () => {
      expect((await http(t.base, 'GET', '/api/v1/partner/vendors', { headers: { 'x-api-key': apiKey } })).status).toBe(500);
    });
    expect(delta).toEqual({ 'rest INTERNAL_SERVER_ERROR': 1 });
  });

  test('/graphql, a resolver: 200 with a masked error → graphql INTERNAL_SERVER_ERROR', async () => {
    const delta = await counted(t.app.services.vendors, 'list', async () => {
      const res = await gql(t.base, apiKey, '{ vendors { id } }');
      expect(res.body.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
    });
    expect(delta).toEqual({ 'graphql INTERNAL_SERVER_ERROR': 1 });
  });

  test('/graphql, before execution (a session lookup): 500 → graphql INTERNAL_SERVER_ERROR', async () => {
    const delta = await counted(t.app.services.provisioning, 'session', async () => {
      const res = await http(t.base, 'POST', '/graphql', { headers: { cookie: sessionCookie }, json: { query: '{ viewer { name } }' } });
      expect(res.status).toBe(500);
    });
    expect(delta).toEqual({ 'graphql INTERNAL_SERVER_ERROR': 1 });
  });

  test('graphql-ws, a resolver: an error message with a masked error → graphql INTERNAL_SERVER_ERROR', async () => {
    const client = createClient({ url: `${t.base.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { apiKey }, retryAttempts: 0 });
    try {
      const delta = await counted(t.app.services.vendors, 'list', async () => {
        const result = await new Promise<any>((resolve, reject) =>
          client.subscribe({ query: '{ vendors { id } }' }, { next: resolve, error: reject, complete: () => {} }),
        );
        expect(result.errors[0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
      });
      expect(delta).toEqual({ 'graphql INTERNAL_SERVER_ERROR': 1 });
    } finally {
      await client.dispose();
    }
  });

  test('graphql-ws, connecting (a session lookup): closed 4500 with a correlation id, not the error → graphql INTERNAL_SERVER_ERROR', async () => {
    const delta = await counted(t.app.services.provisioning, 'session', async () => {
      const socket = ws({ cookie: sessionCookie });
      const closed = new Promise<{ code: number; reason: string }>((resolve) =>
        socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
      );
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
      const { code, reason } = await closed;
      expect(code).toBe(4500);
      expect(reason).toMatch(/^internal server error \(correlation id [0-9a-f-]{36}\)$/);
    });
    expect(delta).toEqual({ 'graphql INTERNAL_SERVER_ERROR': 1 });
  });

  test.each([
    ['/app/dashboard (a page)', () => fetch(`${t.base}/app/dashboard`, { headers: { cookie: sessionCookie } })],
    ['/documents/{id} (a signed link)', () => fetch(documentUrl, { headers: { cookie: sessionCookie } })],
  ])('%s: 500 → http INTERNAL_SERVER_ERROR', async (_, call) => {
    const delta = await counted(t.app.services.provisioning, 'session', async () => expect((await call()).status).toBe(500));
    expect(delta).toEqual({ 'http INTERNAL_SERVER_ERROR': 1 });
  });

  test('/setup/{token}: 500 → http INTERNAL_SERVER_ERROR', async () => {
    const delta = await counted(t.app.services.provisioning, 'previewSetup', async () =>
      expect((await fetch(`${t.base}/setup/${randomUUID()}`)).status).toBe(500),
    );
    expect(delta).toEqual({ 'http INTERNAL_SERVER_ERROR': 1 });
  });

  test('/embed/session: 500 → http INTERNAL_SERVER_ERROR', async () => {
    const delta = await counted(t.app.services.provisioning, 'openEmbedLink', async () => {
      expect((await fetch(`${t.base}/embed/session?token=x`, { redirect: 'manual' })).status).toBe(500);
    });
    expect(delta).toEqual({ 'http INTERNAL_SERVER_ERROR': 1 });
  });
});

test('a graphql-ws connection refused for its credential (4403) is counted as /graphql counts its 401s', async () => {
  const before = await errors();
  const socket = ws({ 'x-api-key': 'pk_not-a-real-key-000000000000000' });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
  expect(await closed).toBe(4403);
  const after = await errors();
  expect((after.get('graphql UNAUTHENTICATED') ?? 0) - (before.get('graphql UNAUTHENTICATED') ?? 0)).toBe(1);
});
