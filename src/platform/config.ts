import path from 'node:path';
import { z } from 'zod';
import { PROCESSOR, parseDocumentAiEndpoint } from '../extraction/documentai/endpoint.ts';
import type { OperationLimits } from './graphql/limits.ts';
import { DEFAULT_READ_LIMITS, type ReadLimits } from '../extraction/read-slices.ts';
import type { OcrSettings } from '../extraction/ocr-engine.ts';
import { DEFAULT_READER_NICE } from '../extraction/worker-priority.ts';
import { DEFAULT_PREPARED } from './db/prepared-names.ts';

// The only reader of process.env: every setting is parsed once, all problems are reported together.
const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  // Loopback unless said otherwise: `npm start` on a laptop is not reachable from the network (the container image
  // sets 0.0.0.0).
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().url().optional(),
  // Connections this instance's `pg` pool may open to DATABASE_URL (requests and background loops share them).
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(1000).default(10),
  // Statements each of those connections keeps prepared (src/platform/db/pg-prepared.ts); 0 for a pooler in
  // transaction mode that does not carry prepared statements from one transaction to the next.
  DATABASE_PREPARED_STATEMENTS: z.coerce.number().int().min(0).max(10000).default(DEFAULT_PREPARED),
  // Postgres' shared_buffers inside the embedded PGlite (initialised, so resident, at start; 128MB by default there):
  // `auto` sizes it by the data at start (32–256MB, src/platform/db/pglite-buffers.ts).
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^(auto|\d+(kB|MB|GB))$/, 'auto, or a size such as 32MB')
    .default('auto'),
  PUBLIC_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  GCS_BUCKET: z.string().min(3).optional(),
  GCS_API_ENDPOINT: z.string().url().optional(),
  GCS_PROJECT_ID: z.string().min(1).optional(),
  EMBEDDER: z.enum(['local', 'openai']).default('local'),
  EMBEDDINGS_URL: z.string().url().optional(),
  EMBEDDINGS_MODEL: z.string().min(1).optional(),
  EMBEDDINGS_API_KEY: z.string().min(1).optional(),
  EMBEDDINGS_DIMENSIONS: z.coerce.number().int().positive().max(65_536).optional(),
  EMBEDDINGS_CACHE_DIR: z.string().min(1).optional(),
  EVENTS_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(200),
  // Lease on an invoice being extracted (src/extraction-lease.ts); with DATABASE_URL, sweeps run every half of it.
  EXTRACTION_LEASE_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  // Webhooks (src/webhooks.service.ts): delays before each retry; DESIGN §7's schedule by default.
  WEBHOOK_RETRY_SCHEDULE: z.string().default('5s,5m,30m,2h,5h,10h,10h').transform(parseDurations),
  OUTBOUND_ALLOW_LOOPBACK: z.enum(['0', '1']).default('0'),
  // Per-minute counters: this process (memory) or shared by every instance through the database (postgres).
  RATE_LIMIT_STORE: z.enum(['memory', 'postgres']).default('memory'),
  // Extraction provider (src/extraction/extractor.ts): offline engine, or Google Document AI's Invoice/Expense parsers.
  EXTRACTOR: z.enum(['local', 'documentai']).default('local'),
  DOCUMENTAI_PROJECT: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.:-]*$/, 'must be a Google Cloud project id')
    .optional(),
  DOCUMENTAI_LOCATION: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'must be a Document AI location such as us or eu')
    .default('us'),
  DOCUMENTAI_INVOICE_PROCESSOR: z.string().regex(PROCESSOR, 'must be a processor id or projects/…/processors/… name').optional(),
  DOCUMENTAI_EXPENSE_PROCESSOR: z.string().regex(PROCESSOR, 'must be a processor id or projects/…/processors/… name').optional(),
  DOCUMENTAI_API_ENDPOINT: z.string().min(1).optional(),
  // The local engine's budgets per document (src/extraction/read-slices.ts): pages read, pages OCR'd, worker time.
  EXTRACTION_MAX_PAGES: z.coerce.number().int().min(1).max(10_000).default(DEFAULT_READ_LIMITS.maxPages),
  EXTRACTION_MAX_OCR_PAGES: z.coerce.number().int().min(0).max(10_000).default(DEFAULT_READ_LIMITS.maxOcrPages),
  EXTRACTION_DOCUMENT_BUDGET_MS: z.coerce.number().int().min(100).max(600_000).default(DEFAULT_READ_LIMITS.budgetMs),
  // OCR of images and text-less PDF pages (src/extraction/ocr-engine.ts): PP-OCRv4 on ONNX Runtime, tesseract.js
  // when asked for or as the fallback when ONNX Runtime cannot load; the models folder; ONNX threads per worker.
  OCR_ENGINE: z.enum(['ppocr', 'tesseract']).default('ppocr'),
  OCR_MODEL_DIR: z.string().min(1).optional(),
  OCR_THREADS: z.coerce.number().int().min(1).max(16).optional(),
  // A reading worker idle this long leaves with its OCR models and buffers; 0 keeps workers for the process's life.
  READER_IDLE_RELEASE_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  // The reading workers' nice value (src/extraction/worker-priority.ts): requests go first; 0 shares the cores evenly.
  READER_NICE: z.coerce.number().int().min(0).max(19).default(DEFAULT_READER_NICE),
  // The adapter's s3:// sources (src/adapter/object-storage.ts); credentials: these, else the AWS SDK's default chain.
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'must be an AWS region such as us-east-1')
    .default('us-east-1'),
  S3_FORCE_PATH_STYLE: z.enum(['0', '1']).default('0'),
  AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  AWS_SESSION_TOKEN: z.string().min(1).optional(),
  // GraphQL limits (src/graphql/limits.ts) for /graphql, graphql-ws and the stored REST operations: DESIGN §9's defaults.
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(2).max(100).default(10),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).max(1000).default(30),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(100).max(1_000_000).default(5000),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(100).max(10_000_000).default(10_000),
  GRAPHQL_DEADLINE_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  // How often open graphql-ws connections have their key or session checked again (revocation elsewhere, expiry).
  AUTH_RECHECK_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  // How often each open graphql-ws connection is pinged; one that has not answered by the next ping is closed. 30 s
  // (graphql-ws's own default is 12 s): under the 60 s idle timeout of common load balancers and proxies, and the
  // pings 2.5 times fewer (docs/decisions.md, "Live events at scale").
  WS_KEEPALIVE_MS: z.coerce.number().int().min(1000).max(300_000).default(30_000),
  // GET /metrics (Prometheus): when set, scrapers must send `Authorization: Bearer <token>`; unset, it answers only
  // when the server listens on loopback (src/platform/metrics/endpoint.ts).
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  // How long an API key's principal is remembered between HTTP requests (0: looked up every time); a revocation
  // in this process drops it at once, one elsewhere is seen within this time.
  AUTH_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Most connections this instance opens to DATABASE_URL. */
  databasePoolSize: number;
  databasePreparedStatements: number;
  /** shared_buffers of the embedded database (PGLITE_SHARED_BUFFERS): `auto` or a size. */
  pgliteSharedBuffers: string;
  publicUrl: string;
  logLevel: z.infer<typeof Env>['LOG_LEVEL'];
  nodeEnv: z.infer<typeof Env>['NODE_ENV'];
  shutdownTimeoutMs: number;
  /** Documents go to this Google Cloud Storage bucket when set; otherwise to DATA_DIR/blobs. */
  gcs: { bucket: string; apiEndpoint?: string; projectId?: string } | undefined;
  /** How texts become vectors (src/embeddings): offline word vectors, or an OpenAI-compatible /v1/embeddings server. */
  embedder: EmbedderConfig;
  /** How often each instance reads new outbox events for its subscribers and webhooks. */
  eventsPollMs: number;
  /**
   * How long an instance's claim on an invoice it is extracting lasts unless renewed (every third of it); with a
   * shared database, a record whose lease ran out is resumed by another instance.
   */
  extractionLeaseMs: number;
  /** Delays (ms) before each retry of a failed webhook delivery; after the last one the delivery fails. */
  webhookRetryScheduleMs: number[];
  /** Outgoing calls may target loopback addresses (and http:// to them): local development and tests only. */
  outboundAllowLoopback: boolean;
  /** Where per-minute rate-limit counters live; monthly allowances are always counted in the database. */
  rateLimitStore: 'memory' | 'postgres';
  /** Which provider turns uploaded documents into fields. */
  extractor: ExtractorConfig;
  /** Limits on every GraphQL operation, whichever way it arrives. */
  graphqlLimits: OperationLimits;
  /** How often open graphql-ws connections have their credentials checked again. */
  authRecheckMs: number;
  /** How often open graphql-ws connections are pinged (one silent until the next ping is closed). */
  wsKeepAliveMs: number;
  /** The bearer token GET /metrics requires; undefined: open on a loopback HOST, refused on any other. */
  metricsToken: string | undefined;
  /** How long HTTP requests reuse an API key's principal (revocations here drop it at once). */
  authCacheMs: number;
  /** How much of one document the local engine reads at most; what it leaves unread is noted on the document. */
  readLimits: ReadLimits;
  /** READER_IDLE_RELEASE_MS. */
  readerIdleReleaseMs: number;
  /** READER_NICE. */
  readerNice: number;
  /** The OCR engine the reading workers run. */
  ocr: OcrSettings;
  /** Where the adapter reads s3:// and gs:// sources from (GCS_API_ENDPOINT / GCS_PROJECT_ID serve both uses). */
  objectSources: {
    s3: { endpoint?: string; region: string; forcePathStyle: boolean; credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } };
    gcs: { apiEndpoint?: string; projectId?: string };
  };
}

export type ExtractorConfig =
  | { kind: 'local' }
  | {
      kind: 'documentai';
      project: string;
      location: string;
      invoiceProcessor: string;
      expenseProcessor: string;
      /** Regional endpoint or local test server; default `{location}-documentai.googleapis.com`. */
      apiEndpoint?: string;
    };

export type EmbedderConfig =
  | { kind: 'local'; /** The compact word-vector cache (default DATA_DIR/embeddings). */ cacheDir: string }
  | { kind: 'openai'; baseUrl: string; model: string; apiKey?: string; dimensions?: number };

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw = emptyToUndefined(env);
  const parsed = Env.safeParse(raw);
  const lines = parsed.success ? [] : parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  lines.push(...crossFieldProblems(raw).map((p) => `  ${p}`));
  if (!parsed.success || lines.length > 0) throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS,
    pgliteSharedBuffers: e.PGLITE_SHARED_BUFFERS,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    logLevel: e.LOG_LEVEL,
    nodeEnv: e.NODE_ENV,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    gcs: e.GCS_BUCKET ? { bucket: e.GCS_BUCKET, apiEndpoint: e.GCS_API_ENDPOINT, projectId: e.GCS_PROJECT_ID } : undefined,
    embedder:
      e.EMBEDDER === 'openai'
        ? { kind: 'openai', baseUrl: e.EMBEDDINGS_URL!, model: e.EMBEDDINGS_MODEL!, apiKey: e.EMBEDDINGS_API_KEY, dimensions: e.EMBEDDINGS_DIMENSIONS }
        : { kind: 'local', cacheDir: path.resolve(e.EMBEDDINGS_CACHE_DIR ?? path.join(e.DATA_DIR, 'embeddings')) },
    eventsPollMs: e.EVENTS_POLL_MS,
    extractionLeaseMs: e.EXTRACTION_LEASE_MS,
    webhookRetryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE,
    outboundAllowLoopback: e.OUTBOUND_ALLOW_LOOPBACK === '1',
    rateLimitStore: e.RATE_LIMIT_STORE,
    extractor:
      e.EXTRACTOR === 'documentai'
        ? {
            kind: 'documentai',
            project: e.DOCUMENTAI_PROJECT!,
            location: e.DOCUMENTAI_LOCATION,
            invoiceProcessor: e.DOCUMENTAI_INVOICE_PROCESSOR!,
            expenseProcessor: e.DOCUMENTAI_EXPENSE_PROCESSOR!,
            apiEndpoint: e.DOCUMENTAI_API_ENDPOINT,
          }
        : { kind: 'local' },
    graphqlLimits: {
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxTokens: e.GRAPHQL_MAX_TOKENS,
      maxCost: e.GRAPHQL_MAX_COST,
      deadlineMs: e.GRAPHQL_DEADLINE_MS,
    },
    authRecheckMs: e.AUTH_RECHECK_MS,
    wsKeepAliveMs: e.WS_KEEPALIVE_MS,
    metricsToken: e.METRICS_TOKEN,
    authCacheMs: e.AUTH_CACHE_MS,
    readLimits: { maxPages: e.EXTRACTION_MAX_PAGES, maxOcrPages: e.EXTRACTION_MAX_OCR_PAGES, budgetMs: e.EXTRACTION_DOCUMENT_BUDGET_MS },
    readerIdleReleaseMs: e.READER_IDLE_RELEASE_MS,
    readerNice: e.READER_NICE,
    ocr: { engine: e.OCR_ENGINE, ...(e.OCR_THREADS ? { threads: e.OCR_THREADS } : {}), ...(e.OCR_MODEL_DIR ? { modelDir: e.OCR_MODEL_DIR } : {}) },
    objectSources: {
      s3: {
        endpoint: e.S3_ENDPOINT,
        region: e.S3_REGION,
        forcePathStyle: e.S3_FORCE_PATH_STYLE === '1',
        credentials:
          e.AWS_ACCESS_KEY_ID && e.AWS_SECRET_ACCESS_KEY
            ? {
                accessKeyId: e.AWS_ACCESS_KEY_ID,
                secretAccessKey: e.AWS_SECRET_ACCESS_KEY,
                ...(e.AWS_SESSION_TOKEN ? { sessionToken: e.AWS_SESSION_TOKEN } : {}),
              }
            : undefined,
      },
      gcs: { apiEndpoint: e.GCS_API_ENDPOINT, projectId: e.GCS_PROJECT_ID },
    },
  };
}

/** Rules that involve several variables; checked on the raw values so they are reported with the others. */
function crossFieldProblems(raw: Record<string, string | undefined>): string[] {
  const out: string[] = [];
  if (raw.EMBEDDER === 'openai') {
    for (const name of ['EMBEDDINGS_URL', 'EMBEDDINGS_MODEL']) if (!raw[name]) out.push(`${name}: required when EMBEDDER=openai`);
  }
  if (raw.EXTRACTOR === 'documentai') {
    for (const name of ['DOCUMENTAI_PROJECT', 'DOCUMENTAI_INVOICE_PROCESSOR', 'DOCUMENTAI_EXPENSE_PROCESSOR']) {
      if (!raw[name]) out.push(`${name}: required when EXTRACTOR=documentai`);
    }
  }
  if (!raw.AWS_ACCESS_KEY_ID !== !raw.AWS_SECRET_ACCESS_KEY) out.push('AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: give both or neither');
  if (raw.DOCUMENTAI_API_ENDPOINT) {
    try {
      parseDocumentAiEndpoint(raw.DOCUMENTAI_API_ENDPOINT, raw.DOCUMENTAI_LOCATION ?? 'us');
    } catch (err) {
      out.push(`DOCUMENTAI_API_ENDPOINT: ${(err as Error).message}`);
    }
  }
  return out;
}

function emptyToUndefined(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '' ? undefined : v]));
}

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** '5s,5m,2h' → [5000, 300000, 7200000]; 1 to 20 entries, each from 1 ms to 24 h. */
function parseDurations(value: string, ctx: z.RefinementCtx): number[] {
  const out: number[] = [];
  for (const part of value.split(',').map((p) => p.trim())) {
    const m = /^(\d+)(ms|s|m|h)$/.exec(part);
    const ms = m ? Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] : NaN;
    if (!(ms >= 1 && ms <= 86_400_000)) {
      ctx.addIssue({ code: 'custom', message: `"${part}" is not a duration from 1ms to 24h (a number with ms, s, m or h, e.g. 5s,5m,30m)` });
      return [];
    }
    out.push(ms);
  }
  if (out.length > 20) ctx.addIssue({ code: 'custom', message: 'at most 20 retries' });
  return out;
}
