import path from 'node:path';
import { z } from 'zod';

// The only reader of process.env: every setting is parsed once, all problems are reported together.
const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().url().optional(),
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
  // Webhooks (src/webhooks.service.ts): delays before each retry; DESIGN §7's schedule by default.
  WEBHOOK_RETRY_SCHEDULE: z.string().default('5s,5m,30m,2h,5h,10h,10h').transform(parseDurations),
  OUTBOUND_ALLOW_LOOPBACK: z.enum(['0', '1']).default('0'),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
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
  /** Delays (ms) before each retry of a failed webhook delivery; after the last one the delivery fails. */
  webhookRetryScheduleMs: number[];
  /** Outgoing calls may target loopback addresses (and http:// to them): local development and tests only. */
  outboundAllowLoopback: boolean;
}

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
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    logLevel: e.LOG_LEVEL,
    nodeEnv: e.NODE_ENV,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    gcs: e.GCS_BUCKET
      ? { bucket: e.GCS_BUCKET, apiEndpoint: e.GCS_API_ENDPOINT, projectId: e.GCS_PROJECT_ID }
      : undefined,
    embedder:
      e.EMBEDDER === 'openai'
        ? { kind: 'openai', baseUrl: e.EMBEDDINGS_URL!, model: e.EMBEDDINGS_MODEL!, apiKey: e.EMBEDDINGS_API_KEY, dimensions: e.EMBEDDINGS_DIMENSIONS }
        : { kind: 'local', cacheDir: path.resolve(e.EMBEDDINGS_CACHE_DIR ?? path.join(e.DATA_DIR, 'embeddings')) },
    eventsPollMs: e.EVENTS_POLL_MS,
    webhookRetryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE,
    outboundAllowLoopback: e.OUTBOUND_ALLOW_LOOPBACK === '1',
  };
}

/** Rules that involve several variables; checked on the raw values so they are reported with the others. */
function crossFieldProblems(raw: Record<string, string | undefined>): string[] {
  const out: string[] = [];
  if (raw.EMBEDDER === 'openai') {
    for (const name of ['EMBEDDINGS_URL', 'EMBEDDINGS_MODEL']) if (!raw[name]) out.push(`${name}: required when EMBEDDER=openai`);
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
