import type { FastifyInstance, RouteHandlerMethod } from 'fastify';

/**
 * Route handlers still running. Fastify's close waits for open connections, not for handlers: a client that drops
 * its connection mid-request (a load balancer's timeout, a benchmark ending its round) leaves the handler running with
 * nobody waiting, and the shutdown went on to close the reader and the database under it — a write failed half way, an
 * upload stopped in the middle of its extraction. The server waits for `idle()` after it stops listening and before
 * it closes what handlers use (the process's SHUTDOWN_TIMEOUT_MS still bounds the whole stop).
 */
export interface RunningHandlers {
  readonly count: number;
  /** Resolves once no handler is running (at once when none is). */
  idle(): Promise<void>;
}

/** Counts every route's handler from its call until its promise settles; install before any route is added. */
export function trackHandlers(app: FastifyInstance): RunningHandlers {
  let count = 0;
  let waiting: (() => void)[] = [];
  const leave = () => {
    if (--count > 0) return;
    const wake = waiting;
    waiting = [];
    for (const resolve of wake) resolve();
  };
  app.addHook('onRoute', (route) => {
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function (this: FastifyInstance, request, reply) {
      count++;
      let result: unknown;
      try {
        result = handler.call(this, request, reply);
      } catch (err) {
        leave();
        throw err;
      }
      if (result instanceof Promise) return result.finally(leave);
      leave();
      return result;
    };
  });
  return {
    get count() {
      return count;
    },
    idle: () => (count === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve))),
  };
}
