import path from 'node:path';
import { expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/platform/config.ts';

test('defaults: port 4000, ./data, embedded database, public URL from the port', () => {
  const c = loadConfig({});
  expect(c).toMatchObject({ port: 4000, dataDir: path.resolve('./data'), databaseUrl: undefined, publicUrl: 'http://localhost:4000', logLevel: 'info' });
});

test('DATABASE_POOL_SIZE: 10 by default, at least 2', () => {
  expect(loadConfig({}).databasePoolSize).toBe(10);
  expect(loadConfig({ DATABASE_POOL_SIZE: '25' }).databasePoolSize).toBe(25);
  expect(() => loadConfig({ DATABASE_POOL_SIZE: '1' })).toThrow(/DATABASE_POOL_SIZE/);
});

test('DATABASE_PREPARED_STATEMENTS: 200 by default, 0 turns them off, not negative', () => {
  expect(loadConfig({}).databasePreparedStatements).toBe(200);
  expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: '0' }).databasePreparedStatements).toBe(0);
  expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: '-1' })).toThrow(/DATABASE_PREPARED_STATEMENTS/);
});

test('values are parsed and empty strings mean unset', () => {
  const c = loadConfig({ PORT: '8080', DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db', PUBLIC_URL: 'https://api.example.com/', LOG_LEVEL: '' });
  expect(c).toMatchObject({ port: 8080, databaseUrl: 'postgres://u:p@127.0.0.1:5432/db', publicUrl: 'https://api.example.com', logLevel: 'info' });
});

test('every bad variable is reported at once', () => {
  let error: unknown;
  try {
    loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', PUBLIC_URL: 'not a url' });
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(ConfigError);
  const message = (error as Error).message;
  for (const name of ['PORT', 'LOG_LEVEL', 'PUBLIC_URL']) expect(message).toContain(name);
});

test('embedder: local by default; openai takes URL, model, key and dimensions', () => {
  expect(loadConfig({}).embedder).toEqual({ kind: 'local', cacheDir: path.resolve('data/embeddings') });
  const c = loadConfig({ EMBEDDER: 'openai', EMBEDDINGS_URL: 'http://127.0.0.1:11434', EMBEDDINGS_MODEL: 'nomic-embed-text', EMBEDDINGS_DIMENSIONS: '768' });
  expect(c.embedder).toEqual({ kind: 'openai', baseUrl: 'http://127.0.0.1:11434', model: 'nomic-embed-text', apiKey: undefined, dimensions: 768 });
});

test('embedder: openai without URL or model, an unknown kind and bad dimensions are reported with the rest', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    throw new Error('expected a ConfigError');
  };
  const missing = problems({ EMBEDDER: 'openai', PORT: 'eighty' });
  for (const text of ['EMBEDDINGS_URL: required when EMBEDDER=openai', 'EMBEDDINGS_MODEL: required when EMBEDDER=openai', 'PORT'])
    expect(missing).toContain(text);
  expect(problems({ EMBEDDER: 'vertex' })).toContain('EMBEDDER');
  const bad = problems({ EMBEDDER: 'openai', EMBEDDINGS_URL: 'not a url', EMBEDDINGS_MODEL: 'm', EMBEDDINGS_DIMENSIONS: '-3' });
  expect(bad).toContain('EMBEDDINGS_URL');
  expect(bad).not.toContain('required');
  expect(bad).toContain('EMBEDDINGS_DIMENSIONS');
});

test("reading budgets: 50 pages, 10 OCR'd pages and 20 s per document by default; EXTRACTION_* are validated", () => {
  expect(loadConfig({}).readLimits).toEqual({ maxPages: 50, maxOcrPages: 10, budgetMs: 20_000 });
  const c = loadConfig({ EXTRACTION_MAX_PAGES: '200', EXTRACTION_MAX_OCR_PAGES: '0', EXTRACTION_DOCUMENT_BUDGET_MS: '5000' });
  expect(c.readLimits).toEqual({ maxPages: 200, maxOcrPages: 0, budgetMs: 5000 });
  for (const bad of [{ EXTRACTION_MAX_PAGES: '0' }, { EXTRACTION_MAX_OCR_PAGES: '-1' }, { EXTRACTION_DOCUMENT_BUDGET_MS: '20s' }]) {
    expect(() => loadConfig(bad)).toThrow(new RegExp(Object.keys(bad)[0]!));
  }
});

test('webhooks: DESIGN §7 retry schedule by default; WEBHOOK_RETRY_SCHEDULE and OUTBOUND_ALLOW_LOOPBACK are validated', () => {
  const d = loadConfig({});
  expect(d.webhookRetryScheduleMs).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  expect(d.outboundAllowLoopback).toBe(false);
  const c = loadConfig({ WEBHOOK_RETRY_SCHEDULE: '100ms, 1s,2m,1h', OUTBOUND_ALLOW_LOOPBACK: '1' });
  expect(c.webhookRetryScheduleMs).toEqual([100, 1000, 120_000, 3_600_000]);
  expect(c.outboundAllowLoopback).toBe(true);
  for (const bad of [
    { WEBHOOK_RETRY_SCHEDULE: '5x' },
    { WEBHOOK_RETRY_SCHEDULE: '1s,,2s' },
    { WEBHOOK_RETRY_SCHEDULE: '25h' },
    { OUTBOUND_ALLOW_LOOPBACK: 'yes' },
  ]) {
    expect(() => loadConfig(bad)).toThrow(new RegExp(Object.keys(bad)[0]!));
  }
});

test('extraction lease: 30 s by default; EXTRACTION_LEASE_MS from 1 s to 10 min', () => {
  expect(loadConfig({}).extractionLeaseMs).toBe(30_000);
  expect(loadConfig({ EXTRACTION_LEASE_MS: '5000' }).extractionLeaseMs).toBe(5000);
  for (const bad of ['999', '600001', 'soon']) expect(() => loadConfig({ EXTRACTION_LEASE_MS: bad })).toThrow(/EXTRACTION_LEASE_MS/);
});

test('graphql-ws keep-alive: a ping every 30 s by default; WS_KEEPALIVE_MS from 1 s to 5 min', () => {
  expect(loadConfig({}).wsKeepAliveMs).toBe(30_000);
  expect(loadConfig({ WS_KEEPALIVE_MS: '12000' }).wsKeepAliveMs).toBe(12_000);
  for (const bad of ['999', '300001', '0', 'often']) expect(() => loadConfig({ WS_KEEPALIVE_MS: bad })).toThrow(/WS_KEEPALIVE_MS/);
});

test('HOST is loopback unless set (the container image sets 0.0.0.0); METRICS_TOKEN unset by default', () => {
  const d = loadConfig({});
  expect(d.host).toBe('127.0.0.1');
  expect(d.metricsToken).toBeUndefined();
  expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
});
