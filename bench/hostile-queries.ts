// Benchmark: hostile GraphQL documents (issue 13) against the real server process (`npm start`'s, embedded database)
// with data in it. Each is sent 20 times, one after another, while /healthz is probed: how long the refusal takes,
// how long /healthz takes meanwhile, and how much the server's resident set grows.
// `npm run bench -- hostile` — targets: refusal < 100 ms, /healthz < 50 ms, RSS < +100 MB.

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { makeInvoicePdf, paperGoodsInvoice, produceInvoice } from '../test/fixtures/invoice-documents.ts';
import { createPartnerWithCli, serverEnv, startServerProcess } from '../test/helpers/process.ts';

const max = (xs: number[]) => Math.max(...xs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (bytes: number) => bytes / 1024 / 1024;

function nestedVendorQuery(levels: number): string {
  let inner = 'id name';
  for (let i = 0; i < levels; i++) inner = `invoices(first: 100) { edges { node { vendor { ${inner} } } } }`;
  return `{ vendors(limit: 200) { ${inner} } }`;
}

const ATTACKS: Record<string, string> = {
  // Baseline: an ordinary query, so the /healthz figures of the attacks have something to compare with.
  'baseline: { viewer { name } }': '{ viewer { name } }',
  'nested vendor→invoices, depth 6': nestedVendorQuery(6),
  '1,000 aliases of invoices(first: 100)': `{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: invoices(first: 100) { nodes { id lineItems { description } } }`).join(' ')} }`,
  '1 MB document': `{ viewer { name ${' __typename'.repeat(95_000)} } }`,
  'depth 200': `{ viewer { ${'tenants { '.repeat(199)}id${' }'.repeat(199)} } }`,
  'one field 1,200 times': `{ ${'viewer { name } '.repeat(1200)} }`,
};

/** The server's resident set (Linux), in bytes. */
function rssOf(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'partner-api-bench-'));
const running: ChildProcess[] = [];
const env = serverEnv({ DATA_DIR: dataDir });
const server = await startServerProcess(env, running);
try {
  const { base } = server;
  const pid = server.proc.pid!;
  const { apiKey } = await createPartnerWithCli(env);
  // Data for the nested query to chew on, were it let through: invoices of two vendors.
  for (const spec of [produceInvoice, paperGoodsInvoice, produceInvoice, paperGoodsInvoice]) {
    const fd = new FormData();
    fd.append('file', new Blob([await makeInvoicePdf(spec)]), 'invoice.pdf');
    const res = await fetch(`${base}/api/v1/partner/invoices/upload`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: fd });
    if (res.status !== 201) throw new Error(`seeding failed: ${res.status} ${await res.text()}`);
  }
  const post = async (query: string) => {
    const t0 = performance.now();
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    const body = (await res.json()) as { errors?: Array<{ extensions?: { code?: string } }> };
    return { ms: performance.now() - t0, status: res.status, code: body.errors?.[0]?.extensions?.code };
  };
  for (const query of Object.values(ATTACKS)) await post(query); // warm: the first of each allocates what it keeps
  const rssBefore = rssOf(pid);

  let ok = true;
  console.log('attack                                   status code               refusal p50 / max     /healthz max');
  for (const [name, query] of Object.entries(ATTACKS)) {
    let attacking = true;
    const health: number[] = [];
    const probing = (async () => {
      while (attacking) {
        const t0 = performance.now();
        await (await fetch(`${base}/healthz`)).arrayBuffer();
        health.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const results = [];
    for (let i = 0; i < 20; i++) results.push(await post(query));
    attacking = false;
    await probing;
    const times = results.map((r) => r.ms);
    const baseline = name.startsWith('baseline');
    const refused = baseline
      ? results.every((r) => r.status === 200)
      : results.every((r) => r.status === 400 && (r.code === 'QUERY_TOO_COMPLEX' || r.code === 'PAYLOAD_TOO_LARGE'));
    const pass = refused && max(times) < 100 && max(health) < 50;
    ok &&= pass;
    console.log(
      `${name.padEnd(40)} ${String(results[0]!.status).padEnd(6)} ${String(results[0]!.code).padEnd(18)} ${median(times).toFixed(1).padStart(6)} / ${max(times).toFixed(1).padStart(6)} ms   ${max(health).toFixed(1).padStart(6)} ms (n=${health.length})  ${pass ? 'PASS' : 'FAIL'}`,
    );
  }
  const rssAfter = rssOf(pid);
  const grown = mb(rssAfter - rssBefore);
  console.log(
    `server RSS ${mb(rssBefore).toFixed(0)} MB → ${mb(rssAfter).toFixed(0)} MB (${grown >= 0 ? '+' : ''}${grown.toFixed(1)} MB over ${20 * Object.keys(ATTACKS).length} refused documents; target < +100 MB) ${grown < 100 ? 'PASS' : 'FAIL'}`,
  );
  if (!ok || grown >= 100) process.exitCode = 1;
} finally {
  server.proc.kill('SIGTERM');
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
