import type { FastifyRequest } from 'fastify';
import { InvalidInput } from '../errors.ts';

// RFC 9112 §3.2: a request without a Host header, or with one whose value is not a host, is answered 400. Fastify
// takes the header as it comes, and Apollo's Fastify integration builds a URL from it on every /graphql request that
// goes through Apollo: `Host: ×`, `Host: ` or a host with a byte Node reads as U+0080–U+009F threw "Invalid URL", a
// 500 (found by the fuzzer's header noise, issue 47).

/** uri-host [ ":" port ]: an IP literal, or a reg-name of unreserved characters, %HH escapes and sub-delims. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+)(?::\d*)?$/;
/** Probes that may come without a Host (an HTTP/1.0 health check): they read nothing from it. */
const HOSTLESS = new Set(['/healthz', '/readyz']);

/** An onRequest hook: throws InvalidInput (400 in the family's shape, through the error handler) for a bad Host. */
export async function requireValidHost(request: FastifyRequest): Promise<void> {
  const host = request.headers.host;
  if (host === undefined && HOSTLESS.has(request.url.split('?')[0]!)) return;
  if (host === undefined) throw new InvalidInput('a Host header is required');
  if (!HOST.test(host) || !URL.canParse(`http://${host}/`)) throw new InvalidInput('the Host header is not a valid host name');
}
