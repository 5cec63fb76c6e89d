// Any OpenAI-compatible `POST {baseUrl}/v1/embeddings` endpoint: OpenAI, Ollama, vLLM, Text Embeddings Inference.
//
// Inputs go in batches of `batchSize`, one request at a time; blank texts get the zero vector without a request.
// Dimensions: taken from `dimensions` when configured (no request at start-up; every response is checked against
// it), otherwise probed once by createOpenAiEmbedder() with a one-word request, so `dimensions` is always known
// once the embedder exists. `dimensions` is not sent to the server (many servers reject the field): to shorten
// OpenAI's text-embedding-3 vectors, choose a model that returns the size you want.
//
// Failures throw EmbeddingsEndpointError, a plain Error on purpose: its message names the internal endpoint and
// quotes its answer for the operator's log, so it must not reach partners as an AppError message (Apollo masks it).

import type { Embedder } from './embedder.ts';
import { l2Normalize } from './embedder.ts';

export interface OpenAiEmbedderOptions {
  /** Server root, e.g. https://api.openai.com or http://127.0.0.1:11434 (`/v1/embeddings` is appended). */
  baseUrl: string;
  model: string;
  apiKey?: string;
  dimensions?: number;
  /** Inputs per request; default 64. */
  batchSize?: number;
  /** Per-request time limit in ms; default 30 000. */
  timeoutMs?: number;
}

export class EmbeddingsEndpointError extends Error {
  constructor(
    message: string,
    /** HTTP status, when the endpoint answered. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'EmbeddingsEndpointError';
  }
}

interface EmbeddingsResponse {
  data?: { index?: unknown; embedding?: unknown }[];
}

export async function createOpenAiEmbedder(opts: OpenAiEmbedderOptions): Promise<Embedder> {
  const url = `${opts.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/embeddings`;
  const batchSize = opts.batchSize ?? 64;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`batchSize must be a positive integer, got ${batchSize}`);

  const request = async (input: string[], expectedDims: number | undefined): Promise<Float32Array[]> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: opts.model, input, encoding_format: 'float' }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await res.text();
    } catch (err) {
      const e = err as Error;
      const why = e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : `${e.message}${causeOf(e)}`;
      throw new EmbeddingsEndpointError(`embeddings request to ${url} failed: ${why}`);
    }
    if (!res.ok) throw new EmbeddingsEndpointError(`embeddings endpoint ${url} answered ${res.status}: ${excerpt(text)}`, res.status);
    return parseVectors(text, input.length, expectedDims, `${url} (${res.status})`);
  };

  let dimensions = opts.dimensions;
  if (dimensions === undefined) dimensions = (await request(['dimension probe'], undefined))[0]!.length;
  const dims = dimensions;

  return {
    id: `openai:${opts.model}`,
    dimensions: dims,
    async embed(texts) {
      // Blank texts are not sent (servers reject empty input): they get the zero vector, as with the local embedder.
      const out: Float32Array[] = texts.map(() => new Float32Array(dims));
      const todo = texts.flatMap((t, i) => (t.trim() ? [i] : []));
      for (let b = 0; b < todo.length; b += batchSize) {
        const batch = todo.slice(b, b + batchSize);
        const vectors = await request(
          batch.map((i) => texts[i]!),
          dims,
        );
        batch.forEach((i, k) => (out[i] = vectors[k]!));
      }
      return out;
    },
  };
}

function parseVectors(text: string, count: number, dims: number | undefined, endpoint: string): Float32Array[] {
  const invalid = (why: string) => new EmbeddingsEndpointError(`embeddings endpoint ${endpoint} sent an invalid response (${why}): ${excerpt(text)}`);
  let body: EmbeddingsResponse;
  try {
    body = JSON.parse(text) as EmbeddingsResponse;
  } catch {
    throw invalid('not JSON');
  }
  if (!Array.isArray(body?.data) || body.data.length !== count) throw invalid(`expected data[] with ${count} items`);
  const out: Float32Array[] = new Array(count);
  for (const item of body.data) {
    const { index, embedding } = item ?? {};
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count || out[index]) {
      throw invalid(`bad or repeated index ${String(index)}`);
    }
    if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw invalid(`embedding ${index} is not an array of numbers`);
    }
    if (dims !== undefined && embedding.length !== dims) throw invalid(`embedding ${index} has ${embedding.length} dimensions, expected ${dims}`);
    out[index] = l2Normalize(Float32Array.from(embedding as number[]));
  }
  return out;
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat || '(empty body)';
}

function causeOf(e: Error): string {
  const cause = e.cause as { code?: string; message?: string } | undefined;
  return cause ? ` (${cause.code ?? cause.message})` : '';
}
