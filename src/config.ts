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
