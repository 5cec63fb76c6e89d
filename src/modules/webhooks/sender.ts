import http from 'node:http';
import https from 'node:https';
import { type PublicUrl, pinnedLookup } from '../../platform/net/outbound-guard.ts';

export interface SendOptions {
  timeoutMs: number;
  /** Extra trusted CA certificates (PEM) for https targets; tests use a self-signed receiver. */
  ca?: string;
  /** Aborts the attempt (shutdown). */
  signal?: AbortSignal;
  /** Keep-alive agent for this target (connections.ts); without it each attempt opens its own connection. */
  agent?: http.Agent;
}

export interface SendResult {
  statusCode: number | null;
  latencyMs: number;
  /** Why the attempt did not succeed (null for a 2xx). */
  error: string | null;
}

const MAX_ERROR_BODY = 200;

/**
 * POSTs `body` to the checked target, connecting only to the addresses the guard approved. Redirects are not
 * followed (a redirect could lead anywhere); any answer but 2xx is reported with its status and the start of its body.
 */
export function send(target: PublicUrl, headers: Record<string, string>, body: string, options: SendOptions): Promise<SendResult> {
  return sendOnce(target, headers, body, options, performance.now());
}

function sendOnce(target: PublicUrl, headers: Record<string, string>, body: string, options: SendOptions, started: number): Promise<SendResult> {
  const elapsed = () => Math.round(performance.now() - started);
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const req = client.request(
      target.url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'partner-api-webhooks/1',
        },
        lookup: pinnedLookup(target.addresses) as never,
        signal: options.signal ? AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.signal]) : AbortSignal.timeout(options.timeoutMs),
        agent: options.agent ?? false,
        ...(options.ca ? { ca: options.ca } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < MAX_ERROR_BODY) text += chunk;
        });
        res.on('error', (err) => resolve({ statusCode: status, latencyMs: elapsed(), error: `response failed: ${err.message}` }));
        res.on('end', () => {
          const ok = status >= 200 && status < 300;
          const snippet = text.trim().slice(0, MAX_ERROR_BODY);
          resolve({ statusCode: status, latencyMs: elapsed(), error: ok ? null : `HTTP ${status}${snippet ? `: ${snippet}` : ''}` });
        });
      },
    );
    req.on('error', (err: Error & { code?: string }) => {
      // A pooled connection the receiver closed while it sat idle: the request never reached it, so it is sent
      // again once on a new connection (Node's documented pattern for `reusedSocket`).
      if (req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE') && options.agent && !options.signal?.aborted) {
        return void sendOnce(target, headers, body, { ...options, agent: undefined }, started).then(resolve);
      }
      const timedOut = err.name === 'AbortError' || err.name === 'TimeoutError' || err.code === 'ABORT_ERR';
      resolve({
        statusCode: null,
        latencyMs: elapsed(),
        error: timedOut ? `timed out after ${options.timeoutMs} ms` : `${err.code ? `${err.code}: ` : ''}${err.message}`,
      });
    });
    req.end(body);
  });
}
