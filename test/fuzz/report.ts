import type { CampaignResult, Failure, RecordedFailure } from './campaign.ts';
import type { FuzzCase } from './cases.ts';
import { httpBodyBytes } from './send.ts';
import { preview } from './wire.ts';

// What a campaign prints: counts by status, the requests per route with their statuses, and for a failure the
// shrunk request — readable, as a curl command when it is small enough, with the server's log lines about it.

const count = (m: Map<string, number>) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k}×${v}`)
    .join(' ');

export function formatResult(result: CampaignResult, serverLog = ''): string {
  const lines: string[] = [];
  const fiveHundreds = [...result.byStatus.entries()].filter(([label]) => /^\d+$/.test(label) && Number(label) >= 500).reduce((s, [, n]) => s + n, 0);
  lines.push(`fuzz: seed ${result.seed}, ${result.sent} requests in ${(result.elapsedMs / 1000).toFixed(1)} s, ${result.byRoute.size} routes`);
  lines.push('', 'by status:');
  for (const [label, n] of [...result.byStatus.entries()].sort((a, b) => a[0].localeCompare(b[0]))) lines.push(`  ${label.padEnd(16)} ${n}`);
  lines.push('', 'by route:');
  const width = Math.max(...[...result.byRoute.keys()].map((r) => r.length), 10);
  for (const [route, counts] of [...result.byRoute.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    const total = [...counts.values()].reduce((s, n) => s + n, 0);
    lines.push(`  ${route.padEnd(width)} ${String(total).padStart(5)}  ${count(counts)}`);
  }
  const rootArgs = [...result.byArgument.keys()].filter((a) => /^(Query|Mutation|Subscription)\./.test(a) && !a.endsWith('@limit'));
  const atLimits = [...result.byArgument.keys()].filter((a) => /^(Query|Mutation|Subscription)\..*@limit$/.test(a));
  const least = [...result.byArgument.entries()].filter(([a]) => rootArgs.includes(a)).sort((x, y) => x[1] - y[1])[0];
  lines.push(
    '',
    `GraphQL arguments given a value: ${rootArgs.length} of the root fields' ${rootArgs.length + result.missingArguments.length} (the least often ${least ? `${least[0]} ×${least[1]}` : '-'}), and ${result.byArgument.size - rootArgs.length} of the fields selected below them`,
  );
  lines.push(
    `GraphQL arguments with a size sent at or next to one of their limits: ${atLimits.length} of ${atLimits.length + result.missingLimits.length}${
      result.missingLimits.length ? ` (not yet: ${result.missingLimits.map((a) => a.replace('@limit', '')).join(', ')})` : ''
    }`,
  );
  if (result.missing.length) lines.push('', `routes without a request: ${result.missing.join(', ')}`);
  if (result.missingArguments.length) lines.push('', `arguments never given a value: ${result.missingArguments.join(', ')}`);
  lines.push('', `responses >= 500: ${fiveHundreds}`, `answers carrying an internal error (any status, graphql-ws 4500/1011): ${result.internalErrors}`);
  lines.push(`process alive: ${result.alive ? 'yes' : 'NO'}`, `/healthz: ${result.healthz}`);
  if (result.failures.length) {
    const total = result.failures.reduce((n, f) => n + f.count, 0);
    lines.push('', `failures: ${total} requests, ${result.failures.length} kinds (route and problem); the first of each:`);
  }
  if (result.failure) lines.push('', formatFailure(result.failure, result.seed, serverLog));
  for (const f of result.failures) lines.push('', formatRecorded(f, result.seed, serverLog));
  return lines.join('\n');
}

/** A failure of a keepGoing campaign: unshrunk, with how often it came and the path that replays it. */
function formatRecorded(failure: RecordedFailure, seed: number, serverLog: string): string {
  const times = failure.count > 1 ? ` (×${failure.count})` : '';
  const text = formatFailure({ ...failure, problem: `${failure.problem}${times}`, report: '' }, seed, serverLog, 'request');
  return `${text}\n\nreplay: npm run fuzz -- --seed ${seed} --path ${failure.path}`;
}

export function formatFailure(failure: Failure, seed: number, serverLog: string, what = 'shrunk request'): string {
  const lines = [`FAILURE: ${failure.problem}`, `route: ${failure.case.route}`, '', `${what}:`, ...describeCase(failure.case).map((l) => `  ${l}`)];
  lines.push('', `answer: ${failure.outcome.excerpt || '(none)'}`);
  const ids = failure.outcome.correlationIds;
  const logLines = serverLog.split('\n');
  // The lines about this request's masked errors; without any, the end of the log (a dead process says why there).
  const logged = ids.length ? logLines.filter((l) => ids.some((id) => l.includes(id))) : logLines.slice(-10);
  if (logged.some((l) => l.trim())) lines.push('', 'server log:', ...logged.slice(-5).map((l) => `  ${l.slice(0, 3000)}`));
  const path = /path: ?"([^"]+)"/.exec(failure.report)?.[1];
  if (failure.report) {
    lines.push('', `replay: npm run fuzz -- --seed ${seed}${path ? ` --path ${path}` : ''}`);
    lines.push('', 'fast-check:', failure.report.split('\n').slice(0, 12).join('\n').slice(0, 3000));
  }
  return lines.join('\n');
}

/** A case as lines: method and URL, headers, body (recipes shown as recipes), and a curl command when it is small. */
export function describeCase(c: FuzzCase): string[] {
  if (c.channel === 'ws') {
    const headers = Object.entries(c.headers ?? {}).map(([k, v]) => `upgrade request ${k}: ${v.length > 200 ? `${v.slice(0, 200)}… (${v.length})` : v}`);
    return [
      'graphql-ws on /graphql (subprotocol graphql-transport-ws)',
      ...headers,
      ...(c.sameOrigin ? ['upgrade request origin: this server'] : []),
      `connection_init payload: ${c.init === undefined ? '(no connection_init)' : preview(c.init)}`,
      ...c.frames.map((f, i) => `frame ${i + 1}: ${'json' in f ? preview(f.json, 4000) : preview(f.raw, 4000)}`),
    ];
  }
  const lines = [`${c.method} ${c.url.length > 2000 ? `${c.url.slice(0, 2000)}… (${c.url.length} characters)` : c.url}`];
  for (const [k, v] of Object.entries(c.headers)) lines.push(`${k}: ${v.length > 200 ? `${v.slice(0, 200)}… (${v.length})` : v}`);
  if (c.body?.type === 'json') lines.push(`body (JSON): ${preview(c.body.value, 4000)}`);
  if (c.body?.type === 'text') lines.push(`body (as is): ${preview(c.body.text, 4000)}`);
  if (c.body?.type === 'form') lines.push(`body (multipart): ${preview(c.body.form, 4000)}`);
  const bytes = c.body?.type === 'form' ? undefined : httpBodyBytes(c);
  if (c.body?.type !== 'form' && (!bytes || bytes.length < 4000) && c.url.length < 2000) {
    const headers = Object.entries(c.headers)
      .map(([k, v]) => `-H ${shellQuote(`${k}: ${v}`)}`)
      .join(' ');
    const data = bytes ? ` --data-binary ${shellQuote(bytes.toString('utf8'))}` : '';
    lines.push(`curl: curl -sS -X ${c.method} "$BASE"${shellQuote(c.url)} ${headers}${data}`);
  }
  return lines;
}

const shellQuote = (s: string) =>
  `$'${s
    .replace(/\\/g, '\\\\')
    .replace(/'/g, "\\'")
    .replace(/[\u0000-\u001f\u007f]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`)}'`;
