// CPU time per request, by where it is spent, around one measured run: the server's event loop (its main thread), its
// other threads (the embedded database's, V8's GC helpers, libuv's pool), this process (the load generator), and
// the PostgreSQL backends serving the server's connections when PostgreSQL runs on this machine. Throughput on a
// shared machine moves by ±10–20% from one minute to the next; the CPU a request costs, and where, moves less and
// says what a change saved. Read from Linux's /proc (clock ticks of 10 ms); elsewhere the figures are absent.
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

export interface CpuPerRequest {
  /** µs per request on the server's event loop. */
  main: number;
  /** µs per request on the server's other threads. */
  threads: number;
  /** µs per request in this process (autocannon). */
  load: number;
  /** µs per request in the PostgreSQL backends of the server's connections (local PostgreSQL only). */
  postgres?: number;
}

const TICK_US = 10_000; // USER_HZ is 100 on Linux

/** User + system ticks of /proc/<pid>[/task/<tid>]/stat, or undefined when it cannot be read. */
function ticksOf(statPath: string): number | undefined {
  try {
    const stat = readFileSync(statPath, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** Ticks of a process's main thread and of all its other threads together. */
function serverTicks(pid: number): { main: number; threads: number } | undefined {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  let main = 0;
  let threads = 0;
  for (const tid of tids) {
    const ticks = ticksOf(`/proc/${pid}/task/${tid}/stat`) ?? 0;
    if (Number(tid) === pid) main += ticks;
    else threads += ticks;
  }
  return { main, threads };
}

export class CpuMeter {
  readonly #serverPid: number;
  readonly #pg: pg.Pool | undefined;
  #start: { server: { main: number; threads: number }; load: NodeJS.CpuUsage; backends: Map<number, number> } | undefined;

  /** `databaseUrl`: the server's PostgreSQL, whose backends are counted when they are processes of this machine. */
  constructor(serverPid: number, databaseUrl?: string) {
    this.#serverPid = serverPid;
    this.#pg = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: 1 }) : undefined;
  }

  async start(): Promise<void> {
    const server = serverTicks(this.#serverPid);
    const backends = new Map<number, number>();
    for (const pid of await this.#backendPids()) {
      const ticks = ticksOf(`/proc/${pid}/stat`);
      if (ticks !== undefined) backends.set(pid, ticks);
    }
    this.#start = server ? { server, load: process.cpuUsage(), backends } : undefined;
  }

  stop(requests: number): CpuPerRequest | undefined {
    const start = this.#start;
    const server = serverTicks(this.#serverPid);
    if (!start || !server || requests === 0) return undefined;
    const load = process.cpuUsage(start.load);
    const perRequest = (ticks: number) => (ticks * TICK_US) / requests;
    let backendTicks = 0;
    for (const [pid, before] of start.backends) backendTicks += (ticksOf(`/proc/${pid}/stat`) ?? before) - before;
    return {
      main: perRequest(server.main - start.server.main),
      threads: perRequest(server.threads - start.server.threads),
      load: (load.user + load.system) / requests,
      ...(start.backends.size ? { postgres: perRequest(backendTicks) } : {}),
    };
  }

  async close(): Promise<void> {
    await this.#pg?.end();
  }

  /** The server's connections' backends (every other client backend of its database: the bench runs alone there). */
  async #backendPids(): Promise<number[]> {
    if (!this.#pg) return [];
    const { rows } = await this.#pg.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`,
    );
    return rows.map((r) => r.pid);
  }
}
