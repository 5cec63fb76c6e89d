import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The real server process (`node --import tsx src/main.ts`, as `npm start` runs it), for end-to-end tests.
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  proc: ChildProcess;
  base: string;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Starts the server with `env` and resolves once it prints where it listens (PORT=0 picks a free port). `wrapper` is a
 * command the server runs under (e.g. `unshare --pid --fork`); a server that exits first rejects with its output.
 */
export function startServerProcess(env: NodeJS.ProcessEnv, running: ChildProcess[], wrapper: string[] = []): Promise<ServerProcess> {
  const [command, ...args] = [...wrapper, process.execPath, '--import', 'tsx', 'src/main.ts'];
  const proc = spawn(command!, args, { cwd: ROOT, env });
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
        resolve({ proc, base: `http://127.0.0.1:${m[1]}`, output: () => out, exited });
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

/** The demo partner's key, which the first start on an empty embedded database prints once. */
export function demoApiKey(server: ServerProcess): string {
  const key = /apiKey\s+(pk_[\w-]{32})/.exec(server.output())?.[1];
  if (!key) throw new Error(`the server printed no demo key:\n${server.output()}`);
  return key;
}
