import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createConnectionPool } from '../../src/modules/webhooks/connections.ts';
import { send } from '../../src/modules/webhooks/sender.ts';
import { generateSecret, signedHeaders } from '../../src/modules/webhooks/signature.ts';

let server: http.Server;
let port: number;
let connections = 0;
const seen: Array<{ host?: string; body: string }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ host: req.headers.host, body });
      if (req.url === '/hang') return; // never answers
      if (req.url === '/redirect') return void res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
      res.writeHead(200).end('ok');
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const target = (path: string) => ({ url: new URL(`http://hooks.invalid:${port}${path}`), addresses: [{ address: '127.0.0.1', family: 4 as const }] });

test('connects to the checked address, never resolving the name again (hooks.invalid does not exist)', async () => {
  const result = await send(target('/ok'), {}, '{"a":1}', { timeoutMs: 2000 });
  expect(result).toMatchObject({ statusCode: 200, error: null });
  expect(seen.at(-1)).toEqual({ host: `hooks.invalid:${port}`, body: '{"a":1}' });
});

test('a timeout and a redirect are failed attempts with a reason', async () => {
  expect(await send(target('/hang'), {}, '{}', { timeoutMs: 200 })).toMatchObject({ statusCode: null, error: 'timed out after 200 ms' });
  expect(await send(target('/redirect'), {}, '{}', { timeoutMs: 2000 })).toMatchObject({ statusCode: 302, error: 'HTTP 302' });
});

test('signatures verify with the standardwebhooks library, with one or two secrets', () => {
  const [a, b] = [generateSecret(), generateSecret()];
  const body = JSON.stringify({ type: 'vendor.created', timestamp: new Date().toISOString(), data: { id: 'x' } });
  const headers = signedHeaders([a, b], 'evt-1', body);
  expect(new Webhook(a).verify(body, headers)).toMatchObject({ type: 'vendor.created' });
  expect(new Webhook(b).verify(body, headers)).toMatchObject({ type: 'vendor.created' });
  expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow();
});

test('with the pool, deliveries to one checked target reuse one connection; another address gets its own agent', async () => {
  const pool = createConnectionPool();
  try {
    const before = connections;
    for (let i = 0; i < 3; i++) {
      expect(await send(target('/ok'), {}, '{}', { timeoutMs: 2000, agent: pool.agentFor(target('/ok')) })).toMatchObject({ statusCode: 200 });
    }
    expect(connections - before).toBe(1);
    const elsewhere = { url: target('/ok').url, addresses: [{ address: '127.0.0.2', family: 4 as const }] };
    expect(pool.agentFor(elsewhere)).not.toBe(pool.agentFor(target('/ok')));
  } finally {
    pool.destroy();
  }
});
