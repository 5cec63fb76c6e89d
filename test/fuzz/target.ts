import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { liveLockHolder } from '../../src/app/admin/data-dir-lock.ts';
import { startServerProcess } from '../helpers/process.ts';
import { type FuzzDocuments, fuzzDocuments } from './files.ts';
import { startObjectStore } from './object-store.ts';
import { seedThroughApi, type SeedIds } from './seed.ts';

// The server under fuzzing: the real process (`node --import tsx src/main.ts`) on an embedded database in a temporary
// DATA_DIR, with nothing able to leave loopback — object storage is a local stub, Google and AWS clients never probe
// metadata addresses, webhooks and adapter URLs may not target loopback, and the embedder is the offline one.

export interface FuzzTarget {
  base: string;
  /** A partner's key (tier embed: unlimited rate) and a second partner's with the enterprise legacy plan. */
  keys: { demo: string; legacy: string };
  ids: SeedIds;
  /** The valid documents uploads are made from (the seeded invoice among them). */
  documents: FuzzDocuments;
  /** The exit code once the process has exited (null while it runs). */
  exitCode(): number | null | undefined;
  output(): string;
  stop(): Promise<void>;
}

export async function startFuzzTarget(opts: { wordVectorCacheDir: string }): Promise<FuzzTarget> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'partner-api-fuzz-'));
  const documents = await fuzzDocuments();
  const { invoicePdf } = documents;
  const store = await startObjectStore(invoicePdf);
  const running: ChildProcess[] = [];
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    // Unhandled errors are logged at error level with their correlation id: a failure report quotes them.
    LOG_LEVEL: 'error',
    EMBEDDER: 'local',
    EMBEDDINGS_CACHE_DIR: opts.wordVectorCacheDir,
    OUTBOUND_ALLOW_LOOPBACK: '0',
    S3_ENDPOINT: store.endpoint,
    S3_FORCE_PATH_STYLE: '1',
    AWS_ACCESS_KEY_ID: 'fuzz',
    AWS_SECRET_ACCESS_KEY: 'fuzz',
    AWS_EC2_METADATA_DISABLED: 'true',
    GCS_API_ENDPOINT: store.endpoint,
    METADATA_SERVER_DETECTION: 'none',
  };
  let exitCode: number | null | undefined;
  const server = await startServerProcess(env, running);
  void server.exited.then((code) => (exitCode = code ?? -1));
  // A runner that ends without stop() (an error, a closed pipe) must not leave the server holding DATA_DIR.
  const killOnExit = () => {
    server.proc.kill('SIGKILL');
    // The server may still be writing as it dies: retry until the directory is gone.
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  };
  process.once('exit', killOnExit);
  const stop = async () => {
    process.off('exit', killOnExit);
    if (exitCode === undefined) {
      server.proc.kill('SIGTERM');
      await Promise.race([server.exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (exitCode === undefined) server.proc.kill('SIGKILL');
    }
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // Its output is not a terminal, so the server prints no demo key: the partners are made as an operator makes them.
    const demo = await createPartner(dataDir, { name: 'Fuzz demo', tier: 'embed' });
    const legacy = await createPartner(dataDir, { name: 'Fuzz legacy', tier: 'embed', 'legacy-plan': 'enterprise' });
    const ids = await seedThroughApi(server.base, demo, invoicePdf);
    return { base: server.base, keys: { demo, legacy }, ids, documents, exitCode: () => exitCode, output: server.output, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** A partner (one with the enterprise legacy plan for GET /api/partner/usage), through the server's admin endpoint. */
async function createPartner(dataDir: string, args: Record<string, string>): Promise<string> {
  const holder = liveLockHolder(dataDir);
  if (holder?.owner !== 'server' || !holder.adminPort || !holder.adminToken) throw new Error('the server published no admin endpoint');
  const res = await fetch(`http://127.0.0.1:${holder.adminPort}/_admin/commands/create-partner`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': holder.adminToken },
    body: JSON.stringify(args),
  });
  const body = (await res.json()) as { apiKey?: string; error?: string };
  if (!body.apiKey) throw new Error(`create-partner failed: ${res.status} ${JSON.stringify(body)}`);
  return body.apiKey;
}
