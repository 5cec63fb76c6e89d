import http from 'node:http';
import WebSocket from 'ws';
import type { FuzzCase, HttpCase, WsCase } from './cases.ts';
import type { FuzzDocuments } from './files.ts';
import { encodeForm } from './multipart.ts';
import { Huge, toJsonText } from './wire.ts';

// Sends one case to the server and judges the answer. A failure is a status of 500 or more, a GraphQL error with
// code INTERNAL_SERVER_ERROR (or a masked error's correlationId) whatever the status, a graphql-ws close with an
// internal-error code (4500, 1011), or no answer at all within the time limit.

export interface Outcome {
  /** For the tallies: `200`, `400`, `ws complete`, `ws closed 4400`, `no answer`. */
  label: string;
  /** Set when the answer is a failure. */
  problem?: string;
  /** The start of the answer, for reports. */
  excerpt: string;
  /** The correlation ids of masked errors in the answer (to find them in the server's log). */
  correlationIds: string[];
}

const HTTP_TIMEOUT_MS = 90_000;
const WS_TIMEOUT_MS = 20_000;
// A fresh connection per request: a reused keep-alive socket the server has just closed would be blamed on the next case.
const agent = new http.Agent({ keepAlive: false });

export function send(base: string, c: FuzzCase, docs: FuzzDocuments): Promise<Outcome> {
  return c.channel === 'http' ? sendHttp(base, c, docs) : sendWs(base, c);
}

/** The body's bytes; a multipart body's files are made from `docs`. */
export function httpBodyBytes(c: HttpCase, docs?: FuzzDocuments): Buffer | undefined {
  const body = c.body;
  if (!body) return undefined;
  if (body.type === 'json') return Buffer.from(toJsonText(body.value), 'utf8');
  if (body.type === 'text') return Buffer.from(body.text instanceof Huge ? body.text.text() : body.text, 'utf8');
  if (!docs) throw new Error('a multipart body needs the documents its files are made from');
  return encodeForm(body.form, docs);
}

function sendHttp(base: string, c: HttpCase, docs: FuzzDocuments): Promise<Outcome> {
  const payload = httpBodyBytes(c, docs);
  return new Promise((resolve) => {
    const req = http.request(base + c.url, {
      method: c.method,
      agent,
      headers: { ...c.headers, ...(payload ? { 'content-length': String(payload.length) } : {}) },
      timeout: HTTP_TIMEOUT_MS,
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${HTTP_TIMEOUT_MS / 1000} s`)));
    req.on('error', (err: NodeJS.ErrnoException) => {
      // A request refused before it is read — headers over Node's 16 KB (431), a body behind a malformed URL (400),
      // over the size limit (413) — is answered and the connection closed while a large request is still being sent:
      // Node's client then sees the reset, not the answer (curl shows it). The process and /healthz are checked anyway.
      if ((err.code === 'ECONNRESET' || err.code === 'EPIPE') && (headerBytes(c) > MAX_HEADER_BYTES || (payload?.length ?? 0) > LARGE_BODY)) {
        resolve({ label: 'reset: large request', excerpt: '', correlationIds: [] });
      } else resolve({ label: 'no answer', problem: `no answer: ${err.code ?? err.message}`, excerpt: '', correlationIds: [] });
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('error', (err) => resolve({ label: 'no answer', problem: `answer cut short: ${err.message}`, excerpt: '', correlationIds: [] }));
      res.on('end', () => resolve(judgeHttp(res.statusCode ?? 0, String(res.headers['content-type'] ?? ''), Buffer.concat(chunks).toString('utf8'))));
    });
    req.end(payload);
  });
}

const MAX_HEADER_BYTES = 16 * 1024;
const LARGE_BODY = 256 * 1024;

function headerBytes(c: HttpCase): number {
  return Buffer.byteLength(`${c.method} ${c.url} HTTP/1.1\r\n`) + Object.entries(c.headers).reduce((n, [k, v]) => n + Buffer.byteLength(`${k}: ${v}\r\n`), 0);
}

function judgeHttp(status: number, contentType: string, text: string): Outcome {
  const excerpt = text.slice(0, 500);
  const correlationIds = maskedErrors(contentType.includes('json') ? parseJson(text) : undefined);
  if (status >= 500) return { label: String(status), problem: `status ${status}`, excerpt, correlationIds };
  if (correlationIds.length) return { label: String(status), problem: `status ${status} carrying an internal server error`, excerpt, correlationIds };
  return { label: String(status), excerpt, correlationIds };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Correlation ids of masked errors: REST `{error, correlationId}`, GraphQL errors with code INTERNAL_SERVER_ERROR. */
function maskedErrors(body: unknown): string[] {
  const found: string[] = [];
  const visit = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const n = node as { correlationId?: unknown; errors?: unknown; extensions?: { code?: unknown; correlationId?: unknown } };
    if (typeof n.correlationId === 'string') found.push(n.correlationId);
    if (n.extensions?.code === 'INTERNAL_SERVER_ERROR') found.push(String(n.extensions.correlationId ?? 'no correlation id'));
    if (Array.isArray(n.errors)) n.errors.forEach(visit);
  };
  if (Array.isArray(body)) body.forEach(visit);
  else visit(body);
  return found;
}

function sendWs(base: string, c: WsCase): Promise<Outcome> {
  return new Promise((resolve) => {
    const headers = { ...c.headers, ...(c.sameOrigin ? { origin: base } : {}) };
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', { maxPayload: 64 * 1024 * 1024, headers });
    const messages: string[] = [];
    const expected = new Set(c.frames.flatMap((f) => ('json' in f && isSubscribe(f.json) ? [f.json.id] : [])));
    let settled = false;
    const finish = (label: string, problem?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const excerpt = messages.join('\n').slice(0, 500);
      const correlationIds = messages.flatMap((m) => maskedErrors(wsErrors(parseJson(m))));
      socket.removeAllListeners();
      socket.on('error', () => {});
      if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) socket.terminate();
      if (!problem && correlationIds.length) problem = 'graphql-ws message carrying an internal server error';
      resolve({ label, ...(problem ? { problem } : {}), excerpt, correlationIds });
    };
    const timer = setTimeout(() => finish('no answer', `graphql-ws: no answer within ${WS_TIMEOUT_MS / 1000} s`), WS_TIMEOUT_MS);
    const sendFrames = () => {
      for (const f of c.frames) socket.send('json' in f ? toJsonText(f.json) : f.raw instanceof Huge ? f.raw.text() : f.raw);
      if (expected.size === 0 || c.listenMs > 0) setTimeout(() => finish(messages.length ? 'ws answered' : 'ws silent'), Math.max(c.listenMs, 150));
    };
    socket.on('unexpected-response', (_req, res) => {
      const status = res.statusCode ?? 0;
      finish(`ws upgrade ${status}`, status >= 500 ? `WebSocket upgrade answered ${status}` : undefined);
    });
    socket.on('error', (err) => finish('no answer', `graphql-ws: ${err.message}`));
    socket.on('close', (code, reason) => {
      const internal = code === 4500 || code === 1011;
      finish(`ws closed ${code}`, internal ? `graphql-ws closed with ${code} ${reason.toString()}` : undefined);
    });
    socket.on('open', () => {
      if (c.init === undefined) sendFrames();
      else socket.send(toJsonText({ type: 'connection_init', payload: c.init }));
    });
    socket.on('message', (data) => {
      const text = data.toString();
      messages.push(text.slice(0, 20_000));
      const msg = parseJson(text) as { type?: string; id?: string } | undefined;
      if (msg?.type === 'connection_ack') return sendFrames();
      if ((msg?.type === 'complete' || msg?.type === 'error') && msg.id !== undefined) {
        expected.delete(msg.id);
        if (expected.size === 0 && c.listenMs === 0) finish(`ws ${msg.type}`);
      }
    });
  });
}

function isSubscribe(m: unknown): m is { id: string } {
  const msg = m as { type?: unknown; id?: unknown } | null;
  return !!msg && msg.type === 'subscribe' && typeof msg.id === 'string' && msg.id !== '';
}

/** The errors of a graphql-ws `next` (in its payload) or `error` (the payload is the list) message. */
function wsErrors(msg: unknown): unknown {
  const m = msg as { type?: string; payload?: unknown } | undefined;
  if (m?.type === 'error') return { errors: m.payload };
  if (m?.type === 'next') return m.payload;
  return undefined;
}
