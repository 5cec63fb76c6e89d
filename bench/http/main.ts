// `npm run bench -- http`: the request path, measured side by side in one run (issue 17, point 1).
// The server runs in a child process (./server.ts) on the seeded demo database: embedded PGlite, or PostgreSQL when
// DATABASE_URL is set. For a read (GET …/inventory/items), a write (POST …/inventory/counts) and an upload of a
// text-layer invoice PDF, autocannon (20 connections) measures, in interleaved rounds:
//   (a) bare    a Fastify handler answering the same bytes from memory (the ceiling);
//   (b) direct  a hand-written Fastify route: same authentication, service calls and SQL, same database, no GraphQL;
//   (c) rest    the REST route (stored GraphQL operation through the executor);
//   (d) graphql /graphql with the same document and variables.
// Prints req/s (mean of the rounds), p50/p99 latency (median of the rounds) and the ratios (c)/(b), (d)/(c), (c)/(a),
// then the CPU a request cost (median of the rounds, ./cpu.ts): the server's event loop, its other threads, the load
// generator, and the PostgreSQL backends when that database runs on this machine.
// Uploads take a reading worker each: they run with BENCH_UPLOAD_CONNECTIONS (4) for twice BENCH_SECONDS, and the
// server is given time to drain its queue between paths.
// BENCH_ROUNDS (3), BENCH_SECONDS (5), BENCH_CONNECTIONS (20), BENCH_ONLY=read,write,upload tune the run;
// BENCH_SERVER_NODE_ARGS passes node flags to every server (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { CpuMeter, type CpuPerRequest } from './cpu.ts';
import { SERVER_NODE_FLAGS } from '../server-flags.ts';
import { print } from 'graphql';
import { buildSchema } from '../../src/app/schema.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { createOperationExecutor } from '../../src/platform/graphql/executor.ts';
import { createOperationGuard } from '../../src/platform/graphql/limits.ts';
import { loadOperation } from '../../src/platform/rest/router.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const UPLOAD_CONNECTIONS = Number(process.env.BENCH_UPLOAD_CONNECTIONS ?? 4);
const ONLY = process.env.BENCH_ONLY?.split(',');

interface Ready {
  /** The server's process (the CPU meter reads its threads). */
  pid: number;
  rest: string;
  aux: string;
  database: string;
  apiKey: string;
  tenantId: string;
  storeId: string;
  itemId: string;
  pdfBase64: string;
  bytes: Record<string, number>;
}

/**
 * BENCH_VARIANTS='name:KEY=value,KEY=value;…' starts one more server per variant with those environment settings
 * (e.g. `before:BENCH_DB_DRIVER=pg-adapter,AUTH_CACHE_MS=0`); its direct, rest and graphql paths join the rounds.
 */
const VARIANTS = (process.env.BENCH_VARIANTS ?? '')
  .split(';')
  .filter(Boolean)
  .map((spec) => {
    const [name, settings = ''] = spec.split(':');
    return {
      name: name!,
      env: Object.fromEntries(
        settings
          .split(',')
          .filter(Boolean)
          .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
      ),
    };
  });

const children: ChildProcess[] = [];
async function startServer(env: Record<string, string>): Promise<Ready> {
  const nodeArgs = [...SERVER_NODE_FLAGS, ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [])];
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', fileURLToPath(new URL('./server.ts', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  children.push(child);
  return new Promise<Ready>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve({ ...(JSON.parse(line) as Omit<Ready, 'pid'>), pid: child.pid! }));
    child.once('exit', (code) => reject(new Error(`bench server exited (${code}) before it was ready`)));
  });
}
// One after the other: on a shared PostgreSQL database the first one seeds the demo data the others reuse.
const ready = await startServer({});
const variantServers: Ready[] = [];
for (const v of VARIANTS) variantServers.push(await startServer(v.env));
const meters = [ready, ...variantServers].map(
  (server, i) => new CpuMeter(server.pid, (i ? VARIANTS[i - 1]!.env.DATABASE_URL : undefined) ?? process.env.DATABASE_URL),
);

// The stored operations, with their shared fragments, as /graphql receives them.
const executor = createOperationExecutor(
  buildSchema(),
  createOperationGuard(buildSchema(), loadConfig({ ...process.env, DATABASE_URL: undefined }).graphqlLimits),
);
const operation = (name: string) => print(loadOperation(executor, name));

type Request = { method: 'GET' | 'POST'; url: string; headers?: Record<string, string>; body?: string | Buffer };
type Paths = Record<'bare' | 'direct' | 'rest' | 'graphql', Request>;

function groupsOf(ready: Ready): Record<string, Paths> {
  const key = { 'x-api-key': ready.apiKey };
  const asJson = (body: unknown) => ({ headers: { ...key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const graphql = (query: string, variables: Record<string, unknown>): Request => ({
    method: 'POST',
    url: `${ready.rest}/graphql`,
    ...asJson({ query, variables }),
  });

  function multipart(parts: Array<{ name: string; value: string } | { name: string; file: Buffer; filename: string }>): {
    headers: Record<string, string>;
    body: Buffer;
  } {
    const boundary = '----partner-api-bench';
    const chunks: Buffer[] = [];
    for (const part of parts) {
      const head =
        'file' in part
          ? `--${boundary}\r\ncontent-disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\ncontent-type: application/pdf\r\n\r\n`
          : `--${boundary}\r\ncontent-disposition: form-data; name="${part.name}"\r\n\r\n`;
      chunks.push(Buffer.from(head), 'file' in part ? part.file : Buffer.from(part.value), Buffer.from('\r\n'));
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    return { headers: { ...key, 'content-type': `multipart/form-data; boundary=${boundary}` }, body: Buffer.concat(chunks) };
  }

  const { rest, aux, tenantId } = ready;
  const pdf = Buffer.from(ready.pdfBase64, 'base64');
  const count = { storeId: ready.storeId, itemId: ready.itemId, quantity: 3 };
  const upload = multipart([{ name: 'file', file: pdf, filename: 'invoice.pdf' }]);
  return {
    read: {
      bare: { method: 'GET', url: `${aux}/bare/items` },
      direct: { method: 'GET', url: `${aux}/direct/tenants/${tenantId}/inventory/items`, headers: key },
      rest: { method: 'GET', url: `${rest}/api/v1/partner/tenants/${tenantId}/inventory/items`, headers: key },
      graphql: graphql(operation('ListInventoryItems'), { tenantId }),
    },
    write: {
      bare: { method: 'POST', url: `${aux}/bare/counts`, ...asJson(count) },
      direct: { method: 'POST', url: `${aux}/direct/tenants/${tenantId}/inventory/counts`, ...asJson(count) },
      rest: { method: 'POST', url: `${rest}/api/v1/partner/tenants/${tenantId}/inventory/counts`, ...asJson(count) },
      graphql: graphql(operation('CreateInventoryCount'), { tenantId, ...count }),
    },
    upload: {
      bare: { method: 'POST', url: `${aux}/bare/upload`, ...upload },
      direct: { method: 'POST', url: `${aux}/direct/invoices/upload`, ...upload },
      rest: { method: 'POST', url: `${rest}/api/v1/partner/invoices/upload`, ...upload },
      graphql: {
        method: 'POST',
        url: `${rest}/graphql`,
        ...(() => {
          const m = multipart([
            { name: 'operations', value: JSON.stringify({ query: operation('UploadInvoice'), variables: { file: null } }) },
            { name: 'map', value: JSON.stringify({ 0: ['variables.file'] }) },
            { name: '0', file: pdf, filename: 'invoice.pdf' },
          ]);
          return { ...m, headers: { ...m.headers, 'apollo-require-preflight': 'true' } };
        })(),
      },
    },
  };
}

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  cpu?: CpuPerRequest;
}

async function once(request: Request): Promise<void> {
  const res = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
  const text = await res.text();
  if (res.status >= 300 || /"errors"\s*:/.test(text)) throw new Error(`${request.method} ${request.url} answered ${res.status}: ${text.slice(0, 300)}`);
}

async function measure(request: Request, seconds: number, group: string, meter?: CpuMeter): Promise<Sample> {
  const upload = group === 'upload';
  await meter?.start();
  const result = await autocannon({
    url: request.url,
    method: request.method,
    headers: request.headers,
    body: request.body,
    connections: upload ? UPLOAD_CONNECTIONS : CONNECTIONS,
    duration: upload ? 2 * seconds : seconds,
  });
  // Requests still queued on the server when the load generator stops are not left to slow the next path (their CPU
  // is counted: the meter stops after them).
  if (upload) await new Promise((r) => setTimeout(r, 3000));
  const cpu = meter?.stop(result.requests.total);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    ...(cpu ? { cpu } : {}),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** Each figure's median over the rounds (undefined when the rounds have none). */
function cpuMedian(cpus: CpuPerRequest[]): CpuPerRequest | undefined {
  if (cpus.length === 0) return undefined;
  const of = (key: keyof CpuPerRequest) => median(cpus.map((c) => c[key] ?? 0));
  return { main: of('main'), threads: of('threads'), load: of('load'), ...(cpus[0]!.postgres !== undefined ? { postgres: of('postgres') } : {}) };
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

console.log(
  `database: ${ready.database === 'pglite' ? 'embedded PGlite' : 'PostgreSQL (DATABASE_URL)'}; ${CONNECTIONS} connections (uploads ${UPLOAD_CONNECTIONS}), ${ROUNDS} interleaved rounds of ${SECONDS} s per path (uploads ${2 * SECONDS} s)`,
);
console.log(`response bytes: items ${ready.bytes.items}, count ${ready.bytes.count}, upload ${ready.bytes.upload}`);
try {
  const groups = groupsOf(ready);
  const variantGroups = variantServers.map(groupsOf);
  for (const [group, main] of Object.entries(groups)) {
    if (ONLY && !ONLY.includes(group)) continue;
    const paths: Record<string, Request> = { ...main };
    const meterOf: Record<string, CpuMeter> = Object.fromEntries(Object.keys(main).map((p) => [p, meters[0]!]));
    VARIANTS.forEach((v, i) => {
      const other = variantGroups[i]![group]!;
      for (const p of ['direct', 'rest', 'graphql'] as const) {
        paths[`${p}[${v.name}]`] = other[p];
        meterOf[`${p}[${v.name}]`] = meters[i + 1]!;
      }
    });
    for (const request of Object.values(paths)) await once(request);
    // Warm-up: JIT, caches and the database's buffers, not counted.
    for (const request of Object.values(paths)) await measure(request, 1, group);
    const samples: Record<string, Sample[]> = Object.fromEntries(Object.keys(paths).map((p) => [p, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, request] of Object.entries(paths)) samples[name]!.push(await measure(request, SECONDS, group, meterOf[name]));
    }
    const summary = Object.fromEntries(
      Object.entries(samples).map(([name, s]) => [
        name,
        {
          rps: mean(s.map((x) => x.rps)),
          p50: median(s.map((x) => x.p50)),
          p99: median(s.map((x) => x.p99)),
          errors: s.reduce((a, x) => a + x.errors, 0),
          rounds: s.map((x) => Math.round(x.rps)),
          cpu: cpuMedian(s.flatMap((x) => (x.cpu ? [x.cpu] : []))),
        },
      ]),
    );
    console.log(`\n${group}:`);
    for (const [name, s] of Object.entries(summary)) {
      console.log(
        `  ${name.padEnd(18)} ${fmt(s.rps).padStart(8)} req/s  p50 ${fmt(s.p50, 1).padStart(6)} ms  p99 ${fmt(s.p99, 1).padStart(6)} ms  rounds [${s.rounds.join(', ')}]${s.errors ? `  NON-2XX/ERRORS ${s.errors}` : ''}`,
      );
    }
    const ratios = (suffix: string) => {
      const [d, r, g] = ['direct', 'rest', 'graphql'].map((p) => summary[`${p}${suffix}`]!.rps);
      return `rest/direct ${(r! / d!).toFixed(2)}   graphql/rest ${(g! / r!).toFixed(2)}   rest/bare ${(r! / summary.bare!.rps).toFixed(3)}`;
    };
    console.log(`  ${ratios('')}`);
    for (const v of VARIANTS) {
      console.log(`  [${v.name}] ${ratios(`[${v.name}]`)}   rest vs [${v.name}] ${(summary.rest!.rps / summary[`rest[${v.name}]`]!.rps).toFixed(2)}×`);
    }
    if (Object.values(summary).some((s) => s.cpu)) {
      const pgColumn = Object.values(summary).some((s) => s.cpu?.postgres !== undefined);
      console.log(`  CPU per request, µs: server event loop + server's other threads + load generator${pgColumn ? ' + PostgreSQL backends' : ''} = total`);
      for (const [name, { cpu }] of Object.entries(summary)) {
        if (!cpu) continue;
        const parts = [cpu.main, cpu.threads, cpu.load, ...(cpu.postgres !== undefined ? [cpu.postgres] : [])];
        console.log(`  ${name.padEnd(18)} ${parts.map((x) => fmt(x).padStart(7)).join(' +')} = ${fmt(parts.reduce((a, b) => a + b, 0)).padStart(7)}`);
      }
    }
  }
} finally {
  await Promise.all(meters.map((m) => m.close()));
  await Promise.all(children.map((child) => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM')))));
}
