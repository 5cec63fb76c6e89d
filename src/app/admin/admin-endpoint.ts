import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { httpStatus } from '../../platform/http/error-status.ts';
import { AppError } from '../../platform/errors.ts';
import { type AdminArgs, type AdminDeps, runAdminCommand } from './commands.ts';

export const ADMIN_PATH = '/_admin/commands/:command';
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Lets the admin CLI act while this server owns the embedded database. Reachable only from loopback and
 * only with the token this server wrote into the data directory's lock file (readable by its owner only).
 */
export function mountAdminEndpoint(app: FastifyInstance, token: () => string | undefined, deps: AdminDeps): void {
  app.post<{ Params: { command: string }; Body: AdminArgs }>(ADMIN_PATH, async (request, reply) => {
    const expected = token();
    const given = request.headers['x-admin-token'];
    if (!LOOPBACK.has(request.socket.remoteAddress ?? '') || !expected || typeof given !== 'string' || !same(given, expected)) {
      return reply.code(404).send({ error: `route not found: POST ${request.url}` });
    }
    try {
      return await runAdminCommand(deps, request.params.command, request.body ?? {});
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return reply.code(httpStatus(err.code)).send({ error: err.message });
    }
  });
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
