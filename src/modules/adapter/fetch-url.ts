import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { InvalidInput, PayloadTooLarge, Upstream } from '../../platform/errors.ts';
import { assertPublicUrl, type GuardOptions, pinnedLookup, type PublicUrl } from '../../platform/net/outbound-guard.ts';

// GET of a partner's (pre-signed) HTTPS URL under the SSRF guard: every hop of a redirect chain is checked and
// connected to exactly the addresses checked; the body is capped while it streams.

export interface FetchLimits {
  maxBytes: number;
  /** Until the TCP connection of each hop is up. */
  connectTimeoutMs: number;
  /** The whole fetch, redirects and body included. */
  timeoutMs: number;
}

export interface UrlFetchOptions extends FetchLimits {
  allowLoopback: boolean;
  /** Extra trusted CA certificates (PEM): tests with a self-signed source. */
  ca?: string;
  resolve?: GuardOptions['resolve'];
  /** The input field named in errors. */
  field: string;
}

export const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A URL as it may appear in a message: no query (a pre-signed URL's signature is a credential) and no fragment. */
export function redactUrl(url: string | URL): string {
  try {
    const u = new URL(String(url));
    return `${u.protocol}//${u.host}${u.pathname}${u.search ? '?…' : ''}`;
  } catch {
    return '(invalid URL)';
  }
}

export async function fetchUrl(raw: string, options: UrlFetchOptions): Promise<Uint8Array> {
  const { field } = options;
  const signal = AbortSignal.timeout(options.timeoutMs);
  let current = raw;
  for (let hop = 0; ; hop++) {
    const target = await checked(current, hop, options);
    let res: IncomingMessage;
    try {
      res = await get(target, options, signal);
    } catch (err) {
      throw new Upstream(`${field} could not be fetched from ${redactUrl(target.url)}: ${describeFailure(err, options, signal)}`);
    }
    const status = res.statusCode ?? 0;
    if (REDIRECTS.has(status) && res.headers.location) {
      res.destroy();
      if (hop >= MAX_REDIRECTS) throw new Upstream(`${field} could not be fetched: more than ${MAX_REDIRECTS} redirects`);
      try {
        current = new URL(res.headers.location, target.url).href;
      } catch {
        throw new Upstream(`${field} could not be fetched: ${redactUrl(target.url)} redirected to an invalid URL`);
      }
      continue;
    }
    if (status < 200 || status > 299) {
      res.destroy();
      throw new Upstream(`${field} could not be fetched: ${redactUrl(target.url)} answered HTTP ${status}`);
    }
    return readCapped(res, options.maxBytes, field, (err) => new Upstream(`${field} could not be read to the end: ${describeFailure(err, options, signal)}`));
  }
}

/** The guard's verdict; after a redirect, the refusal names the hop it was about. */
async function checked(url: string, hop: number, options: UrlFetchOptions): Promise<PublicUrl> {
  try {
    return await assertPublicUrl(url, { allowLoopback: options.allowLoopback, resolve: options.resolve, field: options.field });
  } catch (err) {
    if (hop === 0 || !(err instanceof InvalidInput)) throw err;
    const problem = err.fields[options.field] ?? err.message;
    throw InvalidInput.field(options.field, `redirects to ${redactUrl(url)}, which is refused: it ${problem}`);
  }
}

function get(target: PublicUrl, options: UrlFetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      target.url,
      {
        method: 'GET',
        headers: { 'user-agent': 'partner-api-adapter/1', accept: '*/*' },
        lookup: pinnedLookup(target.addresses) as never,
        signal,
        agent: false,
        ...(options.ca ? { ca: options.ca } : {}),
      },
      resolve,
    );
    req.on('socket', (socket) => {
      if (!socket.connecting) return;
      const timer = setTimeout(() => req.destroy(Object.assign(new Error('connect timeout'), { code: 'ECONNECT_TIMEOUT' })), options.connectTimeoutMs);
      socket.once('connect', () => clearTimeout(timer));
      socket.once('close', () => clearTimeout(timer));
    });
    req.on('error', reject);
    req.end();
  });
}

function describeFailure(err: unknown, options: FetchLimits, signal: AbortSignal): string {
  if (signal.aborted) return `timed out after ${options.timeoutMs} ms`;
  const e = (err ?? {}) as { code?: string; message?: string };
  if (e.code === 'ECONNECT_TIMEOUT') return `connecting timed out after ${options.connectTimeoutMs} ms`;
  return `${e.code ? `${e.code}: ` : ''}${e.message ?? String(err)}`;
}

/** The whole body, refusing (400) a declared or actual size over `maxBytes`; a broken stream is 502. */
export async function readCapped(body: Readable, maxBytes: number, field: string, failure: (err: unknown) => Error, declared?: number): Promise<Uint8Array> {
  const length = declared ?? Number((body as IncomingMessage).headers?.['content-length'] ?? NaN);
  const tooLarge = () => new PayloadTooLarge(`${field} is larger than ${Math.round(maxBytes / 1024 / 1024)} MB (the most a document may be)`);
  if (Number.isFinite(length) && length > maxBytes) {
    body.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buf.length;
      if (size > maxBytes) {
        body.destroy();
        throw tooLarge();
      }
      chunks.push(buf);
    }
  } catch (err) {
    if (err instanceof PayloadTooLarge) throw err;
    throw failure(err);
  }
  return Buffer.concat(chunks, size);
}
