import { type Client, createClient } from 'graphql-ws';
import { sql } from 'kysely';
import { afterEach, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { http, onTestServer, startTestApp, type TestApp } from '../helpers/app.ts';

// Open graphql-ws connections lose a revoked key or an ended session: at once when this process revokes it, on the
// next operation, and within AUTH_RECHECK_MS when another instance (or the CLI on the database) did.

const apps: TestApp[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

async function app(env: Record<string, string>, now?: () => Date): Promise<TestApp> {
  const t = await startTestApp({ env, now });
  apps.push(t);
  return t;
}

interface Connection {
  client: Client;
  closed: Promise<{ code: number; reason: string; at: number }>;
  events: unknown[];
}

function connect(t: TestApp, options: { apiKey?: string; cookie?: string }): Connection {
  let onClosed!: (e: { code: number; reason: string; at: number }) => void;
  const closed = new Promise<{ code: number; reason: string; at: number }>((r) => (onClosed = r));
  // A browser sends its cookie and its page's Origin with the upgrade request.
  const headers = options.cookie ? { cookie: options.cookie, origin: t.base } : {};
  class BrowserLikeSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers });
    }
  }
  const client = createClient({
    url: `${t.base.replace('http', 'ws')}/graphql`,
    webSocketImpl: BrowserLikeSocket,
    connectionParams: options.apiKey ? { apiKey: options.apiKey } : undefined,
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => {},
    on: { closed: (e) => onClosed({ code: (e as WebSocket.CloseEvent).code, reason: String((e as WebSocket.CloseEvent).reason), at: Date.now() }) },
  });
  clients.push(client);
  const events: unknown[] = [];
  client.subscribe({ query: 'subscription { serverTime(everyMs: 250) }' }, { next: (e) => events.push(e), error: () => {}, complete: () => {} });
  return { client, closed, events };
}

async function receiving(connection: Connection): Promise<void> {
  const deadline = Date.now() + 5000;
  while (connection.events.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  expect(connection.events.length).toBeGreaterThan(0);
}

const revokeInDatabase = (t: TestApp, apiKey: string) =>
  sql`update api_keys set revoked_at = now() where prefix = ${apiKey.slice(0, 11)}`.execute(t.database.db);

describe('revoking a key closes its open sockets', () => {
  test('revoked in this process: closed at once with 4403, long before any periodic check', async () => {
    const t = await app({ AUTH_RECHECK_MS: '60000' });
    const { apiKey } = await t.createPartner();
    const other = (await t.createPartner()).apiKey;
    const revoked = connect(t, { apiKey });
    const bystander = connect(t, { apiKey: other });
    await receiving(revoked);
    await receiving(bystander);
    const started = Date.now();
    await t.app.services.partners.revokeApiKey(apiKey.slice(0, 11));
    const { code, reason, at } = await revoked.closed;
    expect(code).toBe(4403);
    expect(reason).toBe('API key revoked');
    expect(at - started).toBeLessThan(30_000);
    // The other partner's connection carries on.
    const seen = bystander.events.length;
    const deadline = Date.now() + 5000;
    while (bystander.events.length <= seen && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(bystander.events.length).toBeGreaterThan(seen);
  });

  test('revoked by another instance (straight in the database): closed by the periodic check', async () => {
    const t = await app({ AUTH_RECHECK_MS: '300' });
    const { apiKey } = await t.createPartner();
    const connection = connect(t, { apiKey });
    await receiving(connection);
    await revokeInDatabase(t, apiKey);
    expect(await connection.closed).toMatchObject({ code: 4403, reason: 'API key revoked' });
  });

  test('the next operation on the socket re-checks the key: nothing runs with a revoked key', async () => {
    const t = await app({ AUTH_RECHECK_MS: '60000' });
    const { apiKey } = await t.createPartner({ tier: 'embed' });
    const connection = connect(t, { apiKey });
    await receiving(connection);
    await revokeInDatabase(t, apiKey);
    const attempt = new Promise<unknown>((resolve) => {
      connection.client.subscribe(
        { query: 'mutation { createTenant(input: { name: "Should not exist", email: "x@y.co" }) { tenantId } }' },
        { next: resolve, error: resolve, complete: () => {} },
      );
    });
    expect(await connection.closed).toMatchObject({ code: 4403, reason: 'API key revoked' });
    await attempt;
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from tenants where name = 'Should not exist'`.execute(t.database.db);
    expect(rows[0]!.n).toBe(0);
  });
});

describe('an embed session that expires closes its socket', () => {
  test('12 hours after sign-in the periodic check closes the page’s socket', async () => {
    let now = new Date('2026-11-24T09:00:00Z');
    const t = await app({ AUTH_RECHECK_MS: '200' }, () => now);
    const { apiKey } = await t.createPartner({ tier: 'embed' });
    const key = { 'x-api-key': apiKey };
    const tenant = await http(t.base, 'POST', '/api/v1/partner/tenants', { headers: key, json: { name: 'Bistro', email: 'owner@bistro.example' } });
    await http(t.base, 'POST', `/api/v1/partner/tenants/${tenant.body.tenantId}/stores`, { headers: key, json: { externalStoreId: 'main', name: 'Main' } });
    const embed = await http(t.base, 'POST', `/api/v1/partner/tenants/${tenant.body.tenantId}/embed/auth`, {
      headers: key,
      json: { email: 'maria@bistro.example', name: 'Maria', role: 'executive', externalStoreId: 'main', page: 'dashboard' },
    });
    expect(embed.body).toMatchObject({ success: true });
    const opened = await fetch(onTestServer(t.base, embed.body.data.embedUrl), { redirect: 'manual' });
    const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
    const connection = connect(t, { cookie });
    await receiving(connection);
    now = new Date(now.getTime() + 12 * 3_600_000 + 1000);
    expect(await connection.closed).toMatchObject({ code: 4403, reason: 'session expired or ended: sign in again' });
  });
});
