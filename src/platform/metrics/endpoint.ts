import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { classifyAddress } from '../net/outbound-guard.ts';
import { familyOf } from '../rest/errors.ts';
import type { Channel, Metrics } from './metrics.ts';

/** The channel of an HTTP request's errors: /graphql, a REST family's path, or anything else (pages, links). */
export function channelOf(url: string): Channel {
  if (url.split('?')[0] === '/graphql') return 'graphql';
  return familyOf(url) ? 'rest' : 'http';
}

/** The error code of a 5xx answered without one (a page's 500, Apollo's own, Fastify's 503 while closing). */
const STATUS_CODES: Record<number, string> = { 500: 'INTERNAL_SERVER_ERROR', 502: 'UPSTREAM', 503: 'SERVICE_UNAVAILABLE', 504: 'GATEWAY_TIMEOUT' };

/**
 * Every response counted by route pattern (never the raw URL), method and status; add it before any route. A 5xx
 * whose error no surface counted (metrics.error with the request) is counted here, once: every 5xx is in
 * api_errors_total. /readyz is not: its 503 is the readiness answer the orchestrator polls for.
 */
export function instrumentHttp(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    metrics.httpRequest(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    if (reply.statusCode >= 500 && route !== '/readyz' && !metrics.errorCounted(request)) {
      metrics.error(channelOf(request.url), STATUS_CODES[reply.statusCode] ?? `HTTP_${reply.statusCode}`, request);
    }
  });
}

/** Whether HOST names a loopback interface only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || classifyAddress(host.replace(/^\[|\]$/g, '')) === 'loopback';
}

/**
 * GET /metrics in Prometheus' text format: route patterns (the admin one too), error codes, pool and queue figures.
 * With a token (METRICS_TOKEN) the scraper must send `Authorization: Bearer <token>`. Without one it answers only
 * when the server listens on loopback; on any other HOST it is refused (403), so figures never reach a network by
 * default.
 */
export function mountMetricsEndpoint(app: FastifyInstance, metrics: Metrics, options: { token: string | undefined; host: string }): void {
  const expected = options.token ? digest(options.token) : undefined;
  const open = !expected && isLoopbackHost(options.host);
  app.get('/metrics', async (request, reply) => {
    if (!expected && !open) {
      return reply.code(403).send({ error: `metrics are off: this server listens on ${options.host}; set METRICS_TOKEN to scrape them` });
    }
    if (expected) {
      const m = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
      if (!m || !timingSafeEqual(digest(m[1]!), expected)) {
        return reply.code(401).header('www-authenticate', 'Bearer realm="metrics"').send({ error: 'missing or invalid metrics token' });
      }
    }
    const { contentType, body } = await metrics.scrape();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  });
}

/** Equal-length digests, so the comparison takes the same time whatever was sent. */
const digest = (value: string): Buffer => createHash('sha256').update(value).digest();
