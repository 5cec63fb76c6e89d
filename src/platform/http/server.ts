import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { AppError, InvalidInput, PayloadTooLarge } from '../errors.ts';
import { instrumentHttp } from '../metrics/endpoint.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { httpLoggerOptions, logPath } from './logging.ts';
import { requireValidHost } from './host-header.ts';
import { MAX_UPLOAD_BYTES, registerMultipart } from './multipart.ts';
import { type RunningHandlers, trackHandlers } from './running-handlers.ts';

export interface ErrorResponder {
  /** Status + body for an error raised outside a route handler (bad JSON, unknown route); counts it in the metrics. */
  (request: FastifyRequest, err: AppError): { status: number; body: unknown; headers: Record<string, string> };
}

/**
 * The Fastify app with health, readiness and error handling; routes are mounted by the composition root. `ready`
 * throws when the service cannot serve; what it returns is shown as the readiness details (components). `handlers`:
 * the route handlers still running (a stop waits for them before closing what they use).
 */
export function createHttpServer(
  config: Config,
  deps: { ready: () => Promise<Record<string, unknown> | void>; respondError: ErrorResponder; metrics?: Metrics },
): { app: FastifyInstance; handlers: RunningHandlers } {
  const app = Fastify({
    logger: httpLoggerOptions(config.logLevel),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,100}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: MAX_UPLOAD_BYTES + 1024 * 1024,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });

  // First, so every route (these below included) is counted.
  const handlers = trackHandlers(app);
  if (deps.metrics) instrumentHttp(app, deps.metrics);
  app.addHook('onRequest', requireValidHost);
  void registerMultipart(app);

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      const details = await deps.ready();
      return { status: 'ready', ...details };
    } catch (err) {
      return reply.code(503).send({ status: 'unavailable', error: (err as Error).message });
    }
  });

  app.setNotFoundHandler((request, reply) => {
    const { status, body } = deps.respondError(request, new NotFoundRoute(request.method, request.url));
    return reply.code(status).send(body);
  });

  // Errors Fastify raises itself (malformed JSON, body too large, unsupported content type) get the
  // family's error shape; anything unknown is masked by the responder.
  app.setErrorHandler((error: Error, request, reply) => {
    const status = (error as { statusCode?: number }).statusCode;
    let appError: unknown = error;
    if (status === 413) appError = new PayloadTooLarge(`request body is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`);
    else if (status === 415) appError = new UnsupportedMediaType(error.message);
    else if (status && status >= 400 && status < 500) appError = new InvalidInput(error.message);
    if (appError instanceof AppError) {
      const r = deps.respondError(request, appError);
      return reply
        .code(appError instanceof UnsupportedMediaType ? 415 : r.status)
        .headers(r.headers)
        .send(r.body);
    }
    const r = deps.respondError(request, error as AppError);
    return reply.code(r.status).send(r.body);
  });

  return { app, handlers };
}

class NotFoundRoute extends AppError {
  constructor(method: string, url: string) {
    super('NOT_FOUND', `route not found: ${method} ${logPath(url)}`);
  }
}

class UnsupportedMediaType extends AppError {
  constructor(message: string) {
    super('BAD_USER_INPUT', message);
  }
}
