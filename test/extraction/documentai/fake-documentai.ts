import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import net from 'node:net';

// A loopback server speaking Document AI's REST protocol for `processors.process`
// (POST /v1/projects/{p}/locations/{l}/processors/{id}:process), answering with recorded responses, so the real
// @google-cloud/documentai client is exercised end to end without network.

export const INVOICE_RESPONSE = readFileSync(new URL('../../fixtures/documentai/invoice-response.json', import.meta.url), 'utf8');
export const EXPENSE_RESPONSE = readFileSync(new URL('../../fixtures/documentai/expense-response.json', import.meta.url), 'utf8');

export interface ProcessCall {
  /** The processor (or processor version) resource name from the path, e.g. projects/p/locations/us/processors/abc. */
  processor: string;
  headers: Record<string, string | string[] | undefined>;
  body: { rawDocument?: { content?: string; mimeType?: string } } & Record<string, unknown>;
}

type Answer = { status: number; body: string };

export interface FakeDocumentAi {
  /** http://127.0.0.1:<port> (for DOCUMENTAI_API_ENDPOINT). */
  endpoint: string;
  port: number;
  calls: ProcessCall[];
  /** Processor id → the recorded response it answers with. */
  respond(processorId: string, body: string): void;
  /** Answer the next `times` calls with this status and a Google error body (e.g. 403 PERMISSION_DENIED). */
  failNext(status: number, times?: number): void;
  close(): Promise<void>;
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

export function googleError(status: number, message = `injected ${STATUS_NAMES[status] ?? status}`): string {
  return JSON.stringify({ error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN' } });
}

export async function startFakeDocumentAi(): Promise<FakeDocumentAi> {
  const calls: ProcessCall[] = [];
  const responses = new Map<string, string>();
  const failures: Answer[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = ({ status, body }: Answer) => res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(body);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const m = /^\/v1\/(projects\/[^/]+\/locations\/[^/]+\/processors\/([^/:]+)(?:\/processorVersions\/[^/:]+)?):process$/.exec(url.pathname);
      if (req.method !== 'POST' || !m) return send({ status: 404, body: googleError(404, `no route ${req.method} ${url.pathname}`) });
      let body: ProcessCall['body'];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send({ status: 400, body: googleError(400, 'Invalid JSON payload received.') });
      }
      calls.push({ processor: decodeURIComponent(m[1]!), headers: req.headers, body });
      const failure = failures.shift();
      if (failure) return send(failure);
      const recorded = responses.get(m[2]!);
      return send(recorded ? { status: 200, body: recorded } : { status: 404, body: googleError(404, `Processor ${m[2]} not found`) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    calls,
    respond: (id, body) => void responses.set(id, body),
    failNext(status, times = 1) {
      for (let i = 0; i < times; i++) failures.push({ status, body: googleError(status) });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Records every outgoing TCP connection this process starts (host as given, before any name resolution), so a
 * test can assert that nothing but loopback was contacted. Catches http/https agents, fetch (undici) and gaxios.
 */
export function recordConnections(): { targets: string[]; nonLoopback(): string[]; stop(): void } {
  const targets: string[] = [];
  const original = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    const [first, second] = args as [unknown, unknown];
    const opts = (Array.isArray(first) ? first[0] : first) as { host?: string; port?: number; path?: string } | number | string;
    if (typeof opts === 'object' && opts !== null) targets.push(opts.path ? `pipe:${opts.path}` : `${opts.host ?? 'localhost'}:${opts.port}`);
    else if (typeof opts === 'number') targets.push(`${typeof second === 'string' ? second : 'localhost'}:${opts}`);
    else if (typeof opts === 'string') targets.push(`pipe:${opts}`);
    return (original as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof original;
  return {
    targets,
    nonLoopback: () => targets.filter((t) => !/^(pipe:|127\.\d+\.\d+\.\d+:|localhost:|::1:|\[::1\]:)/.test(t)),
    stop: () => {
      net.Socket.prototype.connect = original;
    },
  };
}

/** Collects unhandled rejections while a test runs (vitest would report them after the fact). */
export function recordUnhandledRejections(): { reasons: unknown[]; stop(): void } {
  const reasons: unknown[] = [];
  const listener = (reason: unknown) => reasons.push(reason);
  process.on('unhandledRejection', listener);
  return { reasons, stop: () => void process.off('unhandledRejection', listener) };
}
