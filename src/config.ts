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
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Env.safeParse(emptyToUndefined(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
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
  };
}

function emptyToUndefined(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '' ? undefined : v]));
}
