import http from 'node:http';
import https from 'node:https';
import { assertPublicUrl, pinnedLookup } from '../../../platform/net/outbound-guard.ts';

// A fetch for openid-client that calls only URLs the SSRF guard approves (a tenant owner types the issuer, and
// the issuer's discovery document names every other endpoint), connecting to exactly the checked addresses.
// Redirects are returned as they are, and response bodies are capped.

export type FetchBody = ArrayBuffer | null | ReadableStream | string | Uint8Array | undefined | URLSearchParams;

export interface GuardedFetchOptions {
  allowLoopback: boolean;
  /** Largest response body read, in bytes (discovery documents and JWKS are small). */
  maxBodyBytes?: number;
}

const DEFAULT_MAX_BODY = 1024 * 1024;

/** Thrown when the guard refuses a URL or a response is too large; `message` names the URL's origin only. */
export class OutboundRefused extends Error {}

export function guardedFetch(options: GuardedFetchOptions) {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  return async (url: string, init: { body?: FetchBody; headers?: Record<string, string>; method?: string; signal?: AbortSignal | null }): Promise<Response> => {
    let target;
    try {
      target = await assertPublicUrl(url, { allowLoopback: options.allowLoopback, field: 'url' });
    } catch (err) {
      throw new OutboundRefused(`refused to call ${safeOrigin(url)}: ${(err as Error).message.replace(/^url /, '')}`, { cause: err });
    }
    const body = toBuffer(init.body);
    const client = target.url.protocol === 'https:' ? https : http;
    return new Promise<Response>((resolve, reject) => {
      const req = client.request(
        target.url,
        {
          method: init.method ?? 'GET',
          headers: { ...init.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
          lookup: pinnedLookup(target.addresses) as never,
          agent: false,
          ...(init.signal ? { signal: init.signal } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBody) {
              res.destroy(new OutboundRefused(`response from ${target.url.origin} exceeds ${maxBody} bytes`));
              return;
            }
            chunks.push(chunk);
          });
          res.on('error', reject);
          res.on('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              if (Array.isArray(value)) for (const v of value) headers.append(name, v);
              else if (value !== undefined) headers.set(name, value);
            }
            const status = res.statusCode ?? 502;
            const nullBody = status === 204 || status === 304 || (init.method ?? 'GET') === 'HEAD';
            resolve(new Response(nullBody ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage ?? '', headers }));
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };
}

function toBuffer(body: FetchBody): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(new Uint8Array(body));
  throw new TypeError('streaming request bodies are not supported');
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an invalid URL';
  }
}
