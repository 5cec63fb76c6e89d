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
import { Worker, type WorkerOptions } from 'node:worker_threads';

const require = createRequire(import.meta.url);

/** A worker running `entry` (.ts through the tsx bootstrap, anything else directly), given `workerData`. */
export function startWorker(entry: URL, workerData?: unknown): Worker {
  return entry.pathname.endsWith('.ts') ? newWorker(bootstrapCode(entry), { eval: true, workerData }) : newWorker(entry, { workerData });
}

/** The parent's flags as a worker took them (known after the first worker started). */
let acceptedExecArgv: string[] | undefined;

/**
 * A worker with the parent's flags, less those Node refuses in a worker (ERR_WORKER_INVALID_EXEC_ARGV): V8's flags
 * and the per-process ones (`--max-semi-space-size`, `--trace-gc`, `--stack-size`, …) hold for the whole process
 * already. Which flags those are is Node's to say, so its refusal is read instead of a list kept here: a flag given
 * to diagnose the server (`node --trace-gc dist/main.js`) must not stop it from starting its workers.
 */
function newWorker(target: string | URL, options: WorkerOptions): Worker {
  let execArgv = acceptedExecArgv ?? workerExecArgv();
  for (;;) {
    try {
      const worker = new Worker(target, { ...options, execArgv });
      acceptedExecArgv = execArgv;
      return worker;
    } catch (err) {
      const refused = (err as NodeJS.ErrnoException).code === 'ERR_WORKER_INVALID_EXEC_ARGV' ? refusedFlags((err as Error).message) : undefined;
      const remaining = refused && withoutFlags(execArgv, refused);
      if (!remaining || remaining.length === execArgv.length) throw err;
      execArgv = remaining;
    }
  }
}

/** 'Initiated Worker with invalid execArgv flags: --a=1, --b' → ['--a=1', '--b']. */
function refusedFlags(message: string): Set<string> | undefined {
  const list = /invalid execArgv flags: (.*)$/s.exec(message)?.[1];
  return list ? new Set(list.split(', ')) : undefined;
}

/** `args` without the given flags, and without the value that follows one written without '=' ('--x 64'). */
function withoutFlags(args: readonly string[], flags: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!flags.has(a)) {
      out.push(a);
      continue;
    }
    if (!a.includes('=') && i + 1 < args.length && !args[i + 1]!.startsWith('-')) i++;
  }
  return out;
}

/** The parent's execArgv without tsx's own flags (the bootstrap registers tsx) and without inspector flags. */
function workerExecArgv(): string[] {
  const out: string[] = [];
  const args = process.execArgv;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('--inspect')) continue;
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
