import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { createOpenAiEmbedder, EmbeddingsEndpointError } from '../../src/platform/embeddings/openai.embedder.ts';

// A loopback server speaking the OpenAI embeddings protocol: 3-d vectors derived from the text, answered in reverse
// order (the protocol orders by `index`, not by position). `reply` overrides the answer for one test.
interface Seen {
  url: string;
  auth: string | undefined;
  body: { model: string; input: string[] };
}
let seen: Seen[] = [];
let reply: ((res: http.ServerResponse, body: Seen['body']) => void) | undefined;

const vectorOf = (s: string) => [s.length, 2, s.charCodeAt(0) % 7];

const server = http.createServer(async (req, res) => {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  const body = JSON.parse(raw) as Seen['body'];
  seen.push({ url: req.url!, auth: req.headers.authorization, body });
  if (reply) return reply(res, body);
  const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text) })).reverse();
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ object: 'list', model: body.model, data }));
});
let baseUrl: string;

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  reply = undefined;
});

test('batches inputs, restores order by index, L2-normalises, sends model and bearer key', async () => {
  const e = await createOpenAiEmbedder({ baseUrl: `${baseUrl}/`, model: 'nomic-embed-text', apiKey: 'sk-test', dimensions: 3, batchSize: 2 });
  expect(e).toMatchObject({ id: 'openai:nomic-embed-text', dimensions: 3 });
  expect(seen).toHaveLength(0); // dimensions configured: no probe
  const texts = ['a', 'bb', '', 'dddd', 'eeeee'];
  const vectors = await e.embed(texts);
  expect(seen.map((s) => s.body.input)).toEqual([
    ['a', 'bb'],
    ['dddd', 'eeeee'],
  ]);
  expect(seen.every((s) => s.url === '/v1/embeddings' && s.auth === 'Bearer sk-test' && s.body.model === 'nomic-embed-text')).toBe(true);
  expect(Array.from(vectors[2]!)).toEqual([0, 0, 0]); // blank text: zero vector, not sent
  texts.forEach((t, i) => {
    if (!t) return;
    const v = vectorOf(t);
    const n = Math.hypot(...v);
    v.forEach((x, d) => expect(vectors[i]![d]).toBeCloseTo(x / n, 6));
  });
});

test('without configured dimensions, one probe request learns them; a base URL ending in /v1 is accepted', async () => {
  const e = await createOpenAiEmbedder({ baseUrl: `${baseUrl}/v1`, model: 'm' });
  expect(e.dimensions).toBe(3);
  expect(seen).toHaveLength(1);
  expect(seen[0]!.url).toBe('/v1/embeddings');
  expect(seen[0]!.auth).toBeUndefined();
});

test('an HTTP error names the status and quotes the body', async () => {
  reply = (res) => {
    res.statusCode = 429;
    res.end(JSON.stringify({ error: { message: 'Rate limit reached for requests' } }));
  };
  const e = await createOpenAiEmbedder({ baseUrl, model: 'm', dimensions: 3 });
  const err = await e.embed(['x']).catch((x: unknown) => x);
  expect(err).toBeInstanceOf(EmbeddingsEndpointError);
  expect(err).toMatchObject({ status: 429 });
  expect((err as Error).message).toMatch(/answered 429: .*Rate limit reached/);
});

test('malformed answers are rejected: wrong count, bad index, wrong dimension, not JSON', async () => {
  const e = await createOpenAiEmbedder({ baseUrl, model: 'm', dimensions: 3 });
  const answers: [unknown, RegExp][] = [
    [{ data: [] }, /expected data\[\] with 1 items/],
    [{ data: [{ index: 3, embedding: [1, 2, 3] }] }, /bad or repeated index 3/],
    [{ data: [{ index: 0, embedding: [1, 2] }] }, /2 dimensions, expected 3/],
    [{ data: [{ index: 0, embedding: [1, 'x', 3] }] }, /not an array of numbers/],
    ['<html>bad gateway</html>', /not JSON.*bad gateway/],
  ];
  for (const [answer, message] of answers) {
    reply = (res) => res.end(typeof answer === 'string' ? answer : JSON.stringify(answer));
    await expect(e.embed(['x'])).rejects.toThrow(message);
  }
});

test('a slow endpoint times out; an unreachable one is a clear error', async () => {
  reply = (res) => setTimeout(() => res.end('{}'), 1000);
  const slow = await createOpenAiEmbedder({ baseUrl, model: 'm', dimensions: 3, timeoutMs: 100 });
  await expect(slow.embed(['x'])).rejects.toThrow(/no answer within 100 ms/);

  const closed = http.createServer();
  closed.listen(0, '127.0.0.1');
  await once(closed, 'listening');
  const port = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  await expect(createOpenAiEmbedder({ baseUrl: `http://127.0.0.1:${port}`, model: 'm' })).rejects.toThrow(/failed: fetch failed \(ECONNREFUSED\)/);
});
