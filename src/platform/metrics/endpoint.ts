import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.ts';

/** Every response counted by route pattern (never the raw URL), method and status; add it before any route. */
export function instrumentHttp(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.httpRequest(request.routeOptions.url, request.method, reply.statusCode, reply.elapsedTime / 1000);
  });
}

/**
 * GET /metrics in Prometheus' text format. With a token (METRICS_TOKEN) the scraper must send
 * `Authorization: Bearer <token>`; without one the endpoint is open (bind it privately or set the token).
 */
export function mountMetricsEndpoint(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  const expected = token ? digest(token) : undefined;
  app.get('/metrics', async (request, reply) => {
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
