/**
 * The logger services, resolvers and the composition root write to. Fastify's request and app loggers (pino)
 * satisfy it, so the HTTP layer hands its own in; nothing below the HTTP layer names Fastify's types.
 */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
