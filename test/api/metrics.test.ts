import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CAFE_RECEIPT, equipmentInvoice, makeInvoicePdf, makeReceiptImage, produceInvoice } from '../fixtures/invoice-documents.ts';
import { gql, gqlUpload, http as call, startTestApp, type TestApp } from '../helpers/app.ts';

// GET /metrics after real traffic: uploads over REST and GraphQL (text layer and OCR), failing requests, a webhook
// delivered to a local receiver. Values are asserted as counts (never timings).

const TOKEN = 'metrics-token-for-the-tests-0123';
let t: TestApp;
let receiver: http.Server;
let delivered = 0;
let partner: { partnerId: string; tenantId: string; apiKey: string };
const key = () => ({ 'x-api-key': partner.apiKey });
const missingId = randomUUID();

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of Prometheus' text format (comments skipped). */
function parse(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]));
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/** The sum of a series' samples whose labels include `labels`; undefined when there is none. */
function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const hits = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return hits.length ? hits.reduce((sum, s) => sum + s.value, 0) : undefined;
}

async function until(what: string, check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const scrape = (authorization?: string) => fetch(`${t.base}/metrics`, { headers: authorization ? { authorization } : {} });

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      delivered++;
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  t = await startTestApp({ env: { OUTBOUND_ALLOW_LOOPBACK: '1', METRICS_TOKEN: TOKEN } });
  partner = await t.createPartner({ tier: 'storage' });
  const hook = await call(t.base, 'POST', '/api/v1/partner/webhooks', {
    headers: key(),
    json: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['invoice.created'] },
  });
  expect(hook.status).toBe(201);
});
afterAll(async () => {
  await t?.close();
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
});

describe('GET /metrics', () => {
  let samples: Sample[];

  beforeAll(async () => {
    const fd = new FormData();
    fd.append('file', new Blob([await makeInvoicePdf(produceInvoice)]), 'invoice.pdf');
    expect((await call(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: key(), body: fd })).status).toBe(201);

    const up = await gqlUpload(t.base, partner.apiKey, 'mutation Upload($file: Upload!) { uploadInvoice(file: $file) { invoice { id } } }', {
      file: await makeInvoicePdf(equipmentInvoice),
    });
    expect(up.body.errors).toBeUndefined();

    const receipt = new FormData();
    receipt.append('file', new Blob([await makeReceiptImage(CAFE_RECEIPT)]), 'receipt.png');
    expect((await call(t.base, 'POST', '/api/v1/partner/receipts/upload', { headers: key(), body: receipt })).status).toBe(201);

    // Failures: a REST 404, a GraphQL request without a key, a GraphQL field error.
    expect((await call(t.base, 'GET', `/api/v1/partner/invoices/${missingId}`, { headers: key() })).status).toBe(404);
    expect((await gql(t.base, undefined, '{ viewer { id } }')).status).toBe(401);
    const bad = await gql(t.base, partner.apiKey, 'query Missing($id: UUID!) { invoice(id: $id) { id } }', { id: missingId });
    expect(bad.status).toBe(200);

    await until('a webhook delivery', () => delivered > 0);
    // The attempt is counted once recorded, just after the receiver answered.
    let text = '';
    for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
      text = await (await scrape(`Bearer ${TOKEN}`)).text();
      if (/^webhook_delivery_attempts_total\{outcome="delivered"\} [1-9]/m.test(text)) break;
    }
    samples = parse(text);
  }, 120_000);

  test('HTTP requests by route pattern, method and status (never a raw URL)', () => {
    expect(total(samples, 'http_requests_total', { route: '/api/v1/partner/invoices/upload', method: 'POST', status_code: '201' })).toBe(1);
    expect(total(samples, 'http_requests_total', { route: '/api/v1/partner/invoices/:id', method: 'GET', status_code: '404' })).toBe(1);
    expect(total(samples, 'http_requests_total', { route: '/graphql', method: 'POST' })).toBeGreaterThanOrEqual(3);
    expect(total(samples, 'http_request_duration_seconds_count', { route: '/api/v1/partner/invoices/upload' })).toBe(1);
    expect(total(samples, 'http_request_duration_seconds_sum', { route: '/api/v1/partner/invoices/upload' })).toBeGreaterThan(0);
    expect(samples.some((s) => Object.values(s.labels).some((v) => v.includes(missingId)))).toBe(false);
  });

  test('GraphQL operations by name and type, over /graphql and as REST stored operations', () => {
    expect(total(samples, 'graphql_operations_total', { channel: 'graphql', operation: 'Upload', type: 'mutation' })).toBe(1);
    expect(total(samples, 'graphql_operations_total', { channel: 'graphql', operation: 'Missing', type: 'query' })).toBe(1);
    expect(total(samples, 'graphql_operations_total', { channel: 'rest', operation: 'UploadInvoice', type: 'mutation' })).toBe(1);
    expect(total(samples, 'graphql_operation_duration_seconds_count', { channel: 'rest', operation: 'UploadReceipt' })).toBe(1);
  });

  test('errors by code', () => {
    expect(total(samples, 'api_errors_total', { channel: 'rest', code: 'NOT_FOUND' })).toBe(1);
    expect(total(samples, 'api_errors_total', { channel: 'graphql', code: 'UNAUTHENTICATED' })).toBe(1);
    expect(total(samples, 'api_errors_total', { channel: 'graphql', code: 'NOT_FOUND' })).toBe(1);
  });

  test('extraction duration by engine and page kind; the reading queue', () => {
    expect(total(samples, 'extraction_page_duration_seconds_count', { engine: 'text-layer', page_kind: 'pdf' })).toBeGreaterThanOrEqual(3);
    const ocrPages = samples.filter((s) => s.name === 'extraction_page_duration_seconds_count' && s.labels.page_kind === 'image');
    expect(ocrPages.map((s) => s.labels.engine)).toEqual([expect.stringMatching(/^(ppocr|tesseract)$/)]);
    expect(ocrPages[0]!.value).toBe(1);
    expect(total(samples, 'extraction_document_duration_seconds_count', { engine: 'text-layer', document_kind: 'invoice' })).toBe(2);
    expect(total(samples, 'extraction_document_duration_seconds_count', { document_kind: 'receipt' })).toBe(1);
    expect(total(samples, 'extraction_queue_depth')).toBe(0);
    expect(total(samples, 'extraction_documents_in_flight')).toBe(0);
  });

  test('webhook deliveries by outcome, outbox lag, database pool, event-loop lag', () => {
    expect(total(samples, 'webhook_delivery_attempts_total', { outcome: 'delivered' })).toBeGreaterThanOrEqual(1);
    expect(total(samples, 'outbox_lag_seconds')).toBeGreaterThanOrEqual(0);
    // Embedded PGlite is one connection; PostgreSQL (a TEST_DATABASE_URL run) the pool's default of 10.
    const kind = t.database.kind;
    expect(total(samples, 'db_pool_connections', { database: kind, state: 'max' })).toBe(kind === 'pglite' ? 1 : 10);
    expect(total(samples, 'db_pool_waiting_queries', { database: kind })).toBeGreaterThanOrEqual(0);
    expect(total(samples, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(total(samples, 'process_cpu_seconds_total')).toBeGreaterThan(0);
  });
});

describe('METRICS_TOKEN', () => {
  test('401 without the token or with a wrong one; 200 in the text format with it', async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape('Bearer not-the-token')).status).toBe(401);
    expect((await scrape(TOKEN)).status).toBe(401);
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await res.text()).toMatch(/^# HELP /m);
  });
});

describe('without METRICS_TOKEN', () => {
  test('open when the server listens on loopback only; 403 naming METRICS_TOKEN when it listens on every interface', async () => {
    for (const [host, status] of [
      ['127.0.0.1', 200],
      ['0.0.0.0', 403],
    ] as const) {
      const app = await startTestApp({ env: { HOST: host } });
      try {
        const res = await fetch(`http://127.0.0.1:${app.app.port}/metrics`);
        expect(res.status, host).toBe(status);
        if (status === 403) expect(((await res.json()) as { error: string }).error).toMatch(/METRICS_TOKEN/);
      } finally {
        await app.close();
      }
    }
  });
});
