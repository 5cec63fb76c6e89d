// Starting a TypeScript worker thread.
//
// A worker thread does not get the module hooks of the main thread, and on Node 20 tsx's `--import tsx` loader only
// registers itself on the main thread, so `execArgv: ['--import', 'tsx']` is not enough. Instead each worker starts
// from a tiny inline bootstrap that registers tsx's ESM hooks *inside the worker* (tsx/esm/api `register()`) and
// then imports the .ts entry. This works the same under `tsx src/main.ts`, `node --import tsx`, vitest and plain
// node; tsx flags inherited from the parent are dropped so hooks are never registered twice (Node ≥ 22 would
// register them in workers too).

import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const require = createRequire(import.meta.url);

/** A worker running `entry` (.ts through the tsx bootstrap, anything else directly), given `workerData`. */
export function startWorker(entry: URL, workerData?: unknown): Worker {
  return entry.pathname.endsWith('.ts')
    ? new Worker(bootstrapCode(entry), { eval: true, execArgv: workerExecArgv(), workerData })
    : new Worker(entry, { execArgv: workerExecArgv(), workerData });
}

/** The parent's execArgv without tsx's own flags (the bootstrap registers tsx) and without inspector flags. */
function workerExecArgv(): string[] {
  const out: string[] = [];
  const args = process.execArgv;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    // Flags a worker may not take (Node refuses to start it with ERR_WORKER_INVALID_EXEC_ARGV).
    if (a.startsWith('--inspect') || a === '--expose-gc' || a === '--expose_gc') continue;
    // V8 flags of the whole process (`npm start` sets them; a worker's heap is sized by resourceLimits).
    if (/^--(max|min)[-_]semi[-_]space[-_]size(=|$)/.test(a)) {
      if (!a.includes('=')) i++;
      continue;
    }
    if (/^--(no-)?allocation[-_]site[-_]pretenuring$/.test(a)) continue;
    if ((a === '--require' || a === '-r' || a === '--import' || a === '--loader' || a === '--experimental-loader') && i + 1 < args.length) {
      if (/[\\/]tsx[\\/]|^tsx(\/|$)/.test(args[i + 1]!)) {
        i++;
        continue;
      }
    }
    if (/^--(require|import|loader|experimental-loader)=.*tsx/.test(a)) continue;
    out.push(a);
  }
  return out;
}

let tsxApiUrl: string | undefined;
/** Inline (eval) worker code: register tsx in this thread, then load the TypeScript entry. */
function bootstrapCode(entry: URL): string {
  // tsx's exports map: "./esm/api" → import: ./dist/esm/api/index.mjs (its CJS twin cannot register ESM hooks).
  tsxApiUrl ??= pathToFileURL(require.resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs')).href;
  return `import(${JSON.stringify(tsxApiUrl)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
}

/**
 * Asks a reading worker to leave (a `shutdown` message: it finishes its native work, releases its OCR engine and
 * exits) and terminates it when it has not left within `graceMs`. Resolves once it is gone.
 */
export async function askToLeave(worker: Worker, graceMs: number): Promise<void> {
  if (worker.threadId < 0) return; // already gone
  const exited = new Promise<boolean>((resolve) => worker.once('exit', () => resolve(true)));
  worker.postMessage({ type: 'shutdown' });
  // A referenced timer: the workers are unreferenced, so an unreferenced wait would let the process end mid-close.
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, graceMs, false)));
  const left = await Promise.race([exited, grace]);
  clearTimeout(timer);
  if (!left) await worker.terminate().catch(() => undefined);
}
