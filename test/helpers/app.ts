import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { inject } from 'vitest';
import type { Database } from '../../src/platform/db/connect.ts';
import type { LegacyPlan, Tier } from '../../src/platform/db/types.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { type RunningApp, type StartOptions, startApp } from '../../src/main.ts';
import { freshDatabase } from './db.ts';
import { assertMatchesContract } from './openapi.ts';

export interface TestApp {
  app: RunningApp;
  /** http://127.0.0.1:<port> */
  base: string;
  database: Database;
  createPartner(opts?: { tier?: Tier; legacyPlan?: LegacyPlan; name?: string }): Promise<{ partnerId: string; tenantId: string; apiKey: string }>;
  close(): Promise<void>;
}

/** The whole service on a random loopback port over a fresh database, exactly as main.ts composes it. */
export async function startTestApp(
  options: {
    onQuery?: (sql: string) => void;
    /** Extra environment for loadConfig (e.g. WEBHOOK_RETRY_SCHEDULE, OUTBOUND_ALLOW_LOOPBACK). */
    env?: Record<string, string>;
    /** Test-only webhook settings (e.g. the CA of a self-signed receiver). */
    webhooks?: StartOptions['webhooks'];
    /** The app's clock (rate windows, monthly allowances, date defaults). */
    now?: () => Date;
  } = {},
): Promise<TestApp> {
  const database = await freshDatabase({ onQuery: options.onQuery });
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'partner-api-test-')),
    NODE_ENV: 'test',
    EMBEDDINGS_CACHE_DIR: inject('wordVectorCacheDir'),
    ...options.env,
  });
  const app = await startApp({ config, database, webhooks: options.webhooks, now: options.now });
  return {
    app,
    base: `http://127.0.0.1:${app.port}`,
    database,
    createPartner: (opts = {}) =>
      app.services.partners.createPartner({
        name: opts.name ?? `Partner ${Math.random().toString(36).slice(2, 8)}`,
        tier: opts.tier ?? 'storage',
        legacyPlan: opts.legacyPlan ?? null,
      }),
    async close() {
      await app.close();
      await database.close();
    },
  };
}

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * One HTTP call. Every response on a REST path (/api/...) is validated against schema/openapi.yaml:
 * a route that drifts from the published contract fails the test that called it.
 */
export async function http<T = any>(
  base: string,
  method: string,
  url: string,
  opts: { headers?: Record<string, string | undefined>; json?: unknown; body?: string | Blob | FormData } = {},
): Promise<HttpResult<T>> {
  const headers = Object.fromEntries(Object.entries(opts.headers ?? {}).filter((e): e is [string, string] => e[1] !== undefined));
  let body = opts.body;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  }
  const res = await fetch(base + url, { method, headers, body });
  const text = await res.text();
  const parsed = res.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : text;
  if (url.startsWith('/api/')) {
    assertMatchesContract({ method, url, status: res.status, body: parsed, contentType: res.headers.get('content-type') ?? undefined });
  }
  return { status: res.status, headers: res.headers, body: parsed as T };
}

/** POST /graphql with a key sent as X-API-Key (default) or Bearer. */
export async function gql<T = any>(
  base: string,
  apiKey: string | undefined,
  query: string,
  variables?: Record<string, unknown>,
  via: 'x-api-key' | 'bearer' = 'x-api-key',
): Promise<HttpResult<{ data?: T; errors?: Array<{ message: string; extensions?: Record<string, any> }>; error?: string }>> {
  const headers: Record<string, string> = {};
  if (apiKey) headers[via === 'bearer' ? 'authorization' : 'x-api-key'] = via === 'bearer' ? `Bearer ${apiKey}` : apiKey;
  return http(base, 'POST', '/graphql', { headers, json: { query, variables } });
}

/** Inserts a vendor row directly (no service creates vendors before invoices exist). */
export async function insertVendor(database: Database, tenantId: string, v: { name: string; invoiceCount?: number; totalSpent?: number }): Promise<string> {
  const row = await sql<{ id: string }>`
    insert into vendors (tenant_id, name, normalized_name, invoice_count, total_spent)
    values (${tenantId}, ${v.name}, ${v.name.toLowerCase()}, ${v.invoiceCount ?? 0}, ${v.totalSpent ?? 0})
    returning id`.execute(database.db);
  return row.rows[0]!.id;
}

/**
 * A GraphQL multipart request (operations + map + file parts): `files` names the variables that are files
 * (each a Buffer, sent as `<name>.<ext>`); `variables` holds the others.
 */
export async function gqlUpload<T = any>(
  base: string,
  apiKey: string,
  query: string,
  files: Record<string, Buffer>,
  opts: { variables?: Record<string, unknown>; headers?: Record<string, string>; ext?: string } = {},
): Promise<{ status: number; body: { data?: T; errors?: Array<{ message: string; extensions?: Record<string, any> }> } }> {
  const fd = new FormData();
  const variables = { ...opts.variables, ...Object.fromEntries(Object.keys(files).map((k) => [k, null])) };
  fd.append('operations', JSON.stringify({ query, variables }));
  fd.append('map', JSON.stringify(Object.fromEntries(Object.keys(files).map((k, i) => [String(i), [`variables.${k}`]]))));
  Object.values(files).forEach((bytes, i) => fd.append(String(i), new Blob([bytes]), `f${i}.${opts.ext ?? 'pdf'}`));
  const headers = { 'x-api-key': apiKey, ...(opts.headers ?? { 'apollo-require-preflight': 'true' }) };
  const res = await fetch(`${base}/graphql`, { method: 'POST', headers, body: fd });
  return { status: res.status, body: (await res.json()) as any };
}

/**
 * The data statements of a read request: without the background loops' statements (outbox dispatcher, webhook
 * deliveries) and without transaction control. On PostgreSQL the pool runs a background transaction on another
 * connection while the request's statements run, so the log interleaves them and a BEGIN/COMMIT in it cannot be
 * told apart; a read runs no transaction of its own.
 */
export function requestStatements(queries: readonly string[]): string[] {
  const background = (q: string) => /"?(outbox_events|webhook_deliveries)"?/.test(q);
  const control = (q: string) => /^(begin|start transaction|commit|rollback)\b/.test(q.trim().toLowerCase());
  return queries.filter((q) => !background(q) && !control(q));
}

/** A GraphQL operation that must succeed: its data, or an Error carrying the messages and the first error's code. */
export async function gqlData<T = any>(base: string, apiKey: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await gql<T>(base, apiKey, query, variables);
  if (res.body.errors) {
    throw Object.assign(new Error(res.body.errors.map((e) => e.message).join('; ')), { code: res.body.errors[0]?.extensions?.code });
  }
  return res.body.data!;
}

/** A link the app handed out (it names PUBLIC_URL, http://localhost:<port>) as a URL of the test server. */
export function onTestServer(base: string, url: string): string {
  const u = new URL(url);
  return base + u.pathname + u.search;
}
