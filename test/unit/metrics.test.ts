import Fastify from 'fastify';
import { describe, expect, test } from 'vitest';
import { instrumentHttp } from '../../src/platform/metrics/endpoint.ts';
import { metricsPlugin } from '../../src/platform/metrics/graphql-plugin.ts';
import { createMetrics } from '../../src/platform/metrics/metrics.ts';

describe('createMetrics', () => {
  test('each app has its own registry: two apps in one process never share a series', async () => {
    const a = createMetrics();
    const b = createMetrics();
    a.httpRequest('/healthz', 'GET', 200, 0.001);
    expect((await a.scrape()).body).toMatch(/^http_requests_total\{route="\/healthz",method="GET",status_code="200"\} 1$/m);
    expect((await b.scrape()).body).not.toMatch(/^http_requests_total\{/m);
  });

  test('labels stay bounded: unmatched routes, odd methods, unknown codes, operation names capped and truncated', async () => {
    const m = createMetrics();
    m.httpRequest(undefined, 'PROPFIND', 404, 0.001);
    m.error('graphql', 'not a code');
    m.error('rest', 'NOT_FOUND');
    for (let i = 0; i < 250; i++) m.operation('graphql', `Op${i}`, 'query', 0.001);
    m.operation('graphql', 'X'.repeat(500), 'query', 0.001);
    m.operation('graphql', null, 'query', 0.001);
    const text = (await m.scrape()).body;
    expect(text).toMatch(/^http_requests_total\{route="unmatched",method="other",status_code="404"\} 1$/m);
    expect(text).toMatch(/^api_errors_total\{channel="graphql",code="OTHER"\} 1$/m);
    expect(text).toMatch(/^api_errors_total\{channel="rest",code="NOT_FOUND"\} 1$/m);
    const names = new Set([...text.matchAll(/^graphql_operations_total\{channel="graphql",operation="([^"]*)"/gm)].map((x) => x[1]));
    expect(names.size).toBe(202); // 200 distinct names, then `other`; `anonymous` for an unnamed one
    expect(names.has('other')).toBe(true);
    expect(names.has('anonymous')).toBe(true);
    expect([...names].every((n) => n!.length <= 64)).toBe(true);
  });

  test('a document read: one observation per page by engine and page kind, one per document', async () => {
    const m = createMetrics();
    m.documentRead({
      documentKind: 'invoice',
      fileType: 'pdf',
      seconds: 0.5,
      einvoice: false,
      ocrEngine: 'ppocr',
      pages: [
        { source: 'text-layer', ms: 20 },
        { source: 'ocr', ms: 900 },
      ],
    });
    m.documentRead({ documentKind: 'invoice', fileType: 'xml', seconds: 0.05, einvoice: true, ocrEngine: null, pages: [] });
    const text = (await m.scrape()).body;
    expect(text).toMatch(/^extraction_page_duration_seconds_count\{engine="text-layer",page_kind="pdf"\} 1$/m);
    expect(text).toMatch(/^extraction_page_duration_seconds_count\{engine="ppocr",page_kind="pdf"\} 1$/m);
    expect(text).toMatch(/^extraction_document_duration_seconds_count\{engine="ppocr",document_kind="invoice"\} 1$/m);
    expect(text).toMatch(/^extraction_document_duration_seconds_count\{engine="e-invoice",document_kind="invoice"\} 1$/m);
  });

  test('every 5xx is counted once: by the surface that answered it (with its code), else by the HTTP hook', async () => {
    const m = createMetrics();
    const app = Fastify();
    instrumentHttp(app, m);
    app.get('/app/page', (_request, reply) => reply.code(500).send('page failed'));
    app.get('/api/v1/partner/things', (request, reply) => {
      m.error('rest', 'UPSTREAM', request);
      return reply.code(502).send({ error: 'upstream' });
    });
    app.post('/graphql', (_request, reply) => reply.code(500).send({ errors: [{ message: 'x', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] }));
    app.get('/closing', (_request, reply) => reply.code(503).send());
    app.get('/readyz', (_request, reply) => reply.code(503).send({ status: 'unavailable' }));
    for (const [method, url] of [
      ['GET', '/app/page'],
      ['GET', '/api/v1/partner/things'],
      ['POST', '/graphql'],
      ['GET', '/closing'],
      ['GET', '/readyz'],
    ] as const) {
      await app.inject({ method, url });
    }
    const errors = (await m.scrape()).body.split('\n').filter((l) => l.startsWith('api_errors_total{'));
    expect(errors.sort()).toEqual([
      'api_errors_total{channel="graphql",code="INTERNAL_SERVER_ERROR"} 1',
      'api_errors_total{channel="http",code="INTERNAL_SERVER_ERROR"} 1',
      'api_errors_total{channel="http",code="SERVICE_UNAVAILABLE"} 1',
      'api_errors_total{channel="rest",code="UPSTREAM"} 1',
    ]);
    await app.close();
  });

  test("Apollo's plugin counts the errors of a response below 500 and leaves a 5xx response to the HTTP hook", async () => {
    const m = createMetrics();
    const listener = (await metricsPlugin(m).requestDidStart!({ request: {} } as never))!;
    const response = (status: number) => ({
      http: { status },
      body: { kind: 'single', singleResult: { errors: [{ message: 'x', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] } },
    });
    await listener.willSendResponse!({ response: response(200) } as never);
    await listener.willSendResponse!({ response: response(500) } as never);
    expect((await m.scrape()).body).toMatch(/^api_errors_total\{channel="graphql",code="INTERNAL_SERVER_ERROR"\} 1$/m);
  });
});
