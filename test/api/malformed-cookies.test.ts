import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { makeInvoicePdf, produceInvoice } from '../fixtures/invoice-documents.ts';
import { gqlData, http, onTestServer, startTestApp, type TestApp } from '../helpers/app.ts';

// Issue 47: a session cookie whose value is not valid percent-encoding was a 500 on /graphql (even with a valid API
// key), on /app/* and /documents/*, and closed graphql-ws with 4500 "URI malformed". Such a value names no session:
// an API key sent beside it is served, and without a key it is refused like any unknown session.

const BAD_COOKIES = ['pa_session=%zz', 'pa_session=%E0%A4%A', 'pa_session=%', 'other=1; pa_session=%C0%AF'];

let t: TestApp;
let apiKey: string;
let documentUrl: string;

beforeAll(async () => {
  t = await startTestApp();
  ({ apiKey } = await t.createPartner({ tier: 'embed' }));
  const fd = new FormData();
  fd.set('file', new Blob([await makeInvoicePdf(produceInvoice)]), 'invoice.pdf');
  const upload = await http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: { 'x-api-key': apiKey }, body: fd });
  expect(upload.status).toBe(201);
  const { invoice } = await gqlData(t.base, apiKey, 'query($id: UUID!) { invoice(id: $id) { original { url } } }', { id: upload.body.id });
  documentUrl = onTestServer(t.base, invoice.original.url);
});
afterAll(() => t?.close());

describe.each(BAD_COOKIES)('Cookie: %s', (cookie) => {
  test('/graphql with a valid API key beside it: 200, served by the key', async () => {
    const res = await http(t.base, 'POST', '/graphql', { headers: { 'x-api-key': apiKey, cookie }, json: { query: '{ viewer { keyPrefix } }' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { viewer: { keyPrefix: apiKey.slice(0, 11) } } });
  });

  test('/graphql with the cookie alone: 401, the session is unknown', async () => {
    const res = await http(t.base, 'POST', '/graphql', { headers: { cookie }, json: { query: '{ viewer { keyPrefix } }' } });
    expect(res.status).toBe(401);
    expect(res.body.errors).toEqual([{ message: 'your session has ended: sign in again', extensions: { code: 'UNAUTHENTICATED' } }]);
  });

  test('/app/dashboard: 401, the session-ended page', async () => {
    const res = await fetch(`${t.base}/app/dashboard`, { headers: { cookie }, redirect: 'manual' });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('Your session has ended');
  });

  test('/documents/{id} through a signed link: the file, as without the cookie', async () => {
    const res = await fetch(documentUrl, { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
  });

  test('graphql-ws with an API key in connectionParams beside it: the operation runs', async () => {
    const client = wsClient(cookie, { apiKey });
    try {
      const result = await new Promise<unknown>((resolve, reject) => {
        client.subscribe({ query: '{ viewer { keyPrefix } }' }, { next: resolve, error: reject, complete: () => {} });
      });
      expect(result).toEqual({ data: { viewer: { keyPrefix: apiKey.slice(0, 11) } } });
    } finally {
      await client.dispose();
    }
  });

  test('graphql-ws with the cookie alone (same origin): closed 4403 Forbidden, not 4500', async () => {
    const socket = new WebSocket(`${t.base.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { headers: { cookie, origin: t.base } });
    const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
    expect(await closed).toEqual({ code: 4403, reason: 'Forbidden' });
  });
});

/** A graphql-ws client whose upgrade request carries `cookie` and this server's Origin (as a page of it would). */
function wsClient(cookie: string, connectionParams: Record<string, unknown>) {
  const origin = t.base;
  class CookieSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { cookie, origin } });
    }
  }
  return createClient({ url: `${t.base.replace('http', 'ws')}/graphql`, webSocketImpl: CookieSocket, connectionParams, retryAttempts: 0, lazy: true });
}
