import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The real server process (`node --import tsx src/main.ts`, as `npm start` runs it), for end-to-end tests.
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  proc: ChildProcess;
  base: string;
  output: () => string;
  exited: Promise<number | null>;
  /** Sends a signal to the server process itself (not to `script` when it runs on a terminal). */
  signal: (signal: NodeJS.Signals) => void;
}

/**
 * Starts the server with `env` and resolves once it prints where it listens (PORT=0 picks a free port); a server that
 * exits first rejects with its output. `tty`: on a terminal (util-linux `script` gives it a pseudo-terminal, as `npm
 * start` in a shell has); `proc` is then `script`, which passes the server's exit code on (`exec`: the server is its
 * only child). `wrapper`: a command the server runs under (e.g. `unshare --pid --fork`), which `proc` then is.
 */
export function startServerProcess(
  env: NodeJS.ProcessEnv,
  running: ChildProcess[],
  options: { tty?: boolean; wrapper?: string[] } = {},
): Promise<ServerProcess> {
  const node = [...(options.wrapper ?? []), process.execPath, '--import', 'tsx', 'src/main.ts'];
  const proc = options.tty
    ? spawn('script', ['-qefc', `exec ${node.map((a) => `'${a}'`).join(' ')}`, '/dev/null'], { cwd: ROOT, env })
    : spawn(node[0]!, node.slice(1), { cwd: ROOT, env });
  running.push(proc);
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /listening on http:\/\/(?:localhost|127\.0\.0\.1):(\d+)/.exec(out);
      if (m) {
        clearInterval(timer);
        const pid = options.tty ? Number(execFileSync('pgrep', ['-P', String(proc.pid)], { encoding: 'utf8' }).trim()) : proc.pid!;
        resolve({ proc, base: `http://127.0.0.1:${m[1]}`, output: () => out, exited, signal: (s) => process.kill(pid, s) });
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`server exited with ${code}: ${out}`));
    });
  });
}

/** A server process's environment for tests and benchmarks: a free loopback port, warn-level logs, no cloud probes. */
export function serverEnv(overrides: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  // A DATABASE_URL exported in the shell (`eval "$(tools/postgres.sh start)"`) is not the test's database.
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  return {
    ...inherited,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    METADATA_SERVER_DETECTION: 'none',
    AWS_EC2_METADATA_DISABLED: 'true',
    ...overrides,
  };
}

/** The admin CLI (`npm run admin -- …`, from the sources) with the server's environment: beside a running server it goes through it. */
export function runAdmin(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, env });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d) => (stdout += d));
  proc.stderr.on('data', (d) => (stderr += d));
  return new Promise((r) => proc.on('exit', (code) => r({ code, stdout, stderr })));
}

/** A new partner and its key, made the way an operator makes one: `npm run admin -- create-partner`. */
export async function createPartnerWithCli(
  env: NodeJS.ProcessEnv,
  tier: 'extraction' | 'storage' | 'embed' = 'embed',
): Promise<{ partnerId: string; tenantId: string; apiKey: string }> {
  const created = await runAdmin(env, 'create-partner', '--name', `Test ${tier} partner`, '--tier', tier);
  if (created.code !== 0) throw new Error(`create-partner failed (${created.code}): ${created.stderr}`);
  return JSON.parse(created.stdout.trim());
}
