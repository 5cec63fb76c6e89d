import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../../src/platform/config.ts';
import { startApp } from '../../src/main.ts';
import { gql, http, startTestApp, type TestApp } from '../helpers/app.ts';

// The app's clock is this variable: windows and months move when the test says so.
let clock = new Date('2026-11-02T10:00:01Z');
let t: TestApp;
const bearer = (apiKey: string) => ({ authorization: `Bearer ${apiKey}` });
const at = (iso: string) => (clock = new Date(iso));

beforeAll(async () => {
  t = await startTestApp({ now: () => clock });
});
afterAll(() => t?.close());

describe('legacy plans: per minute and per month', () => {
  test('a starter key: 10 requests in a minute, the 11th is 429 with retryAfter and headers; the window slides', async () => {
    at('2026-11-02T10:00:01Z');
    const p = await t.createPartner({ tier: 'extraction', legacyPlan: 'starter' });
    for (let i = 1; i <= 10; i++) {
      const res = await http(t.base, 'GET', '/api/partner/usage', { headers: bearer(p.apiKey) });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBe('10;w=60');
      expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^limit=10, remaining=${10 - i}, reset=\\d+$`));
    }
    const refused = await http(t.base, 'GET', '/api/partner/usage', { headers: bearer(p.apiKey) });
    expect(refused.status).toBe(429);
    // all 10 in this minute: the estimate falls to 9 when 10 × (1 − s/60) ≤ 9 in the next minute: 59 s + 6 s
    expect(refused.body).toEqual({ success: false, error: 'rate limit exceeded: 10 requests per minute (legacy-starter); retry after 65 s', retryAfter: 65 });
    expect(refused.headers.get('retry-after')).toBe('65');
    expect(refused.headers.get('ratelimit')).toMatch(/^limit=10, remaining=0, reset=\d+$/);
    // 64 s later the previous minute still weighs 10 × 55/60 ≈ 9.2: one more would make 10.2
    at('2026-11-02T10:01:05Z');
    expect((await http(t.base, 'GET', '/api/partner/usage', { headers: bearer(p.apiKey) })).status).toBe(429);
    at('2026-11-02T10:01:06Z');
    const again = await http(t.base, 'GET', '/api/partner/usage', { headers: bearer(p.apiKey) });
    expect(again.status).toBe(200);
    // refused requests are not counted: 11 accepted this month
    expect(again.body.usage.requests).toBe(11);
  });

  test('the monthly allowance (1,000 on starter) is enforced and resets with the month', async () => {
    const p = await t.createPartner({ tier: 'extraction', legacyPlan: 'starter' });
    const start = Date.parse('2026-11-05T00:00:00Z');
    let last;
    for (let i = 0; i < 1000; i++) {
      clock = new Date(start + i * 7_000); // 8.6 a minute, under the per-minute limit
      last = await http(t.base, 'GET', '/api/partner/usage', { headers: bearer(p.apiKey) });
      expect(last.status).toBe(200);
    }
    expect(last!.body).toMatchObject({
      plan: 'starter',
      period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' },
      usage: { requests: 1000, documents: 0 },
      limits: { perMinute: 10, perMonth: 1000 },
      remaining: { perMonth: 0 },
    });
    at('2026-11-30T23:59:00Z');
    const refused = await http(t.base, 'GET', '/api/partner/usage', { headers: bearer(p.apiKey) });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/1000 requests per month/);
    expect(refused.body.retryAfter).toBe(60); // until 2026-12-01T00:00Z
    at('2026-12-01T00:00:30Z');
    const december = await http(t.base, 'GET', '/api/partner/usage', { headers: bearer(p.apiKey) });
    expect(december.status).toBe(200);
    expect(december.body.usage.requests).toBe(1);
  });

  test('a key without a legacy plan is 403 on usage and limited by its tier', async () => {
    at('2026-11-06T10:00:00Z');
    const p = await t.createPartner({ tier: 'extraction' });
    const res = await http(t.base, 'GET', '/api/partner/usage', { headers: bearer(p.apiKey) });
    expect(res.status).toBe(403);
    expect(res.headers.get('ratelimit-policy')).toBe('1000;w=60');
  });
});

describe('tiers: per minute per key, REST and GraphQL together', () => {
  test('an Extraction API key: 1,000 a minute across v1 and GraphQL; the 1,001st is 429, over HTTP and over WebSocket', async () => {
    at('2026-11-07T10:00:00Z');
    const p = await t.createPartner({ tier: 'extraction' });
    for (let i = 0; i < 999; i++) {
      const res = await fetch(`${t.base}/api/v1/partner/vendors`, { headers: { 'x-api-key': p.apiKey } });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const thousandth = await gql(t.base, p.apiKey, '{ viewer { name } }');
    expect(thousandth.status).toBe(200);
    expect((thousandth.body as { extensions?: unknown }).extensions).toEqual({ rateLimit: { policy: 'extraction', limit: 1000, remaining: 0, reset: 120 } });
    const refused = await gql(t.base, p.apiKey, '{ viewer { name } }');
    expect(refused.status).toBe(429);
    // 1,000 × (1 − s/60) ≤ 999 0.06 s into the next minute
    expect(refused.body.errors?.[0]?.extensions).toEqual({ code: 'RATE_LIMITED', retryAfter: 61 });
    const rest = await http(t.base, 'GET', '/api/v1/partner/vendors', { headers: { 'x-api-key': p.apiKey } });
    expect(rest.status).toBe(429);
    expect(rest.body).toEqual({ error: expect.stringMatching(/^rate limit exceeded: 1000 requests per minute \(extraction\)/), retryAfter: 61 });

    // over graphql-ws: the connection is accepted, the operation is refused
    const client: Client = createClient({
      url: `${t.base.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { apiKey: p.apiKey },
      retryAttempts: 0,
    });
    try {
      const result = await new Promise<unknown>((resolve) => {
        client.subscribe({ query: '{ viewer { name } }' }, { next: resolve, error: resolve, complete: () => {} });
      });
      expect(JSON.stringify(result)).toMatch(/RATE_LIMITED/);
    } finally {
      await client.dispose();
    }
    // another key of the same partner has its own allowance
    const other = await t.app.services.partners.createApiKey({ partnerId: p.partnerId });
    expect((await http(t.base, 'GET', '/api/v1/partner/vendors', { headers: { 'x-api-key': other.apiKey } })).status).toBe(200);
  });

  test('a Platform Embed key is never limited and gets no RateLimit headers', async () => {
    at('2026-11-08T10:00:00Z');
    const p = await t.createPartner({ tier: 'embed' });
    for (let i = 0; i < 1_100; i++) {
      const res = await fetch(`${t.base}/api/v1/partner/vendors`, { headers: { 'x-api-key': p.apiKey } });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit')).toBeNull();
      await res.arrayBuffer();
    }
    const res = await gql(t.base, p.apiKey, '{ viewer { name } }');
    expect(res.status).toBe(200);
    expect((res.body as { extensions?: unknown }).extensions).toBeUndefined();
  });
});

describe('RATE_LIMIT_STORE=postgres', () => {
  test('two instances on one database share the per-minute counters', async () => {
    const shared = await startTestApp({ env: { RATE_LIMIT_STORE: 'postgres' }, now: () => clock });
    const second = await startApp({
      config: loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        NODE_ENV: 'test',
        RATE_LIMIT_STORE: 'postgres',
        DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'rl-')),
        EMBEDDINGS_CACHE_DIR: inject('wordVectorCacheDir'),
      }),
      database: shared.database,
      now: () => clock,
    });
    try {
      at('2026-11-09T10:00:00Z');
      const p = await shared.createPartner({ tier: 'extraction', legacyPlan: 'starter' });
      const bases = [shared.base, `http://127.0.0.1:${second.port}`];
      for (let i = 0; i < 10; i++) {
        expect((await http(bases[i % 2]!, 'GET', '/api/partner/usage', { headers: bearer(p.apiKey) })).status).toBe(200);
      }
      expect((await http(bases[0]!, 'GET', '/api/partner/usage', { headers: bearer(p.apiKey) })).status).toBe(429);
      expect((await http(bases[1]!, 'GET', '/api/partner/usage', { headers: bearer(p.apiKey) })).status).toBe(429);
    } finally {
      await second.close();
      await shared.close();
    }
  });
});
