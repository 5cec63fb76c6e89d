import { isIP } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { classifyAddress } from '../../src/platform/net/outbound-guard.ts';
import { DEFAULT_SEED, runCampaign } from './campaign.ts';
import { formatResult } from './report.ts';
import { safeUrl } from './safe-urls.ts';
import { startFuzzTarget, type FuzzTarget } from './target.ts';
import { Huge, toText } from './wire.ts';

// Issue 13: the bounded, seeded fuzz run of CI against the real process — every REST route of schema/openapi.yaml and
// every GraphQL field and argument with generated bad input, odd headers and cookies, corrupted documents. No response
// may be a 5xx (or carry an internal server error), the process must stay up and /healthz answer. Every failure is
// reported, not only the first (issue 47), each with the command that replays it. `npm run fuzz` is the long run.
//
// FUZZ_SEED and FUZZ_REQUESTS set the fixed campaign (default seed 1313, 2,500 requests). In CI (CI=true) a second
// campaign follows on the same server with a seed that changes every day (FUZZ_ROTATING_SEED, default the UTC date
// as YYYYMMDD) and FUZZ_ROTATING_REQUESTS requests (default FUZZ_REQUESTS); .ci/run prints both seeds.

const count = (name: string, fallback: number) => {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive integer (got ${process.env[name]})`);
  return n;
};
const SEED = count('FUZZ_SEED', DEFAULT_SEED);
const REQUESTS = count('FUZZ_REQUESTS', 2500);
const campaigns = [{ kind: 'fixed', seed: SEED, requests: REQUESTS }];
if (process.env.CI === 'true' || process.env.FUZZ_ROTATING_SEED) {
  const today = Number(new Date().toISOString().slice(0, 10).replace(/-/g, ''));
  campaigns.push({ kind: 'rotating', seed: count('FUZZ_ROTATING_SEED', today), requests: count('FUZZ_ROTATING_REQUESTS', REQUESTS) });
}
/** About 10 ms a request alone on this 2-core machine, 20–30 beside the rest of the suite; a slow CI host gets 4×. */
const timeoutFor = (requests: number) => Math.max(600_000, requests * 120);

let target: FuzzTarget;

beforeAll(async () => {
  target = await startFuzzTarget({ wordVectorCacheDir: inject('wordVectorCacheDir') });
}, 180_000);
afterAll(() => target?.stop());

test('URL inputs never name a host that would need DNS or is public: nothing leaves loopback', () => {
  for (const name of ['url', 'source_url', 'sourceUrl', 'logoUrl']) {
    for (const value of fc.sample(safeUrl(name), { seed: SEED, numRuns: 500 })) {
      if (typeof value !== 'string' && !(value instanceof Huge)) continue;
      let host: string;
      try {
        host = new URL(toText(value).trim()).hostname.replace(/^\[|\]$/g, '');
      } catch {
        continue;
      }
      if (host === '') continue;
      expect(host === 'localhost' || (isIP(host) !== 0 && classifyAddress(host) !== 'public'), `${name}: ${toText(value).slice(0, 100)}`).toBe(true);
    }
  }
});

test.each(campaigns)(
  '$kind campaign: $requests seeded requests (seed $seed) over every route and argument: no 5xx, no internal error, the process alive, /healthz answering',
  async ({ kind, seed, requests }) => {
    process.stderr.write(
      `fuzz: ${kind} campaign, seed ${seed}, ${requests} requests (replay: npm run fuzz -- --seed ${seed} --requests ${requests} --keep-going)\n`,
    );
    const result = await runCampaign(target, { seed, requests, keepGoing: true });
    const report = formatResult(result, target.output());
    expect(result.failure, report).toBeUndefined();
    // Every failure of the campaign, each with its replay command (keepGoing: the campaign ran to its end).
    expect(
      result.failures.map((f) => `${f.case.route}: ${f.problem} ×${f.count} (--path ${f.path})`),
      report,
    ).toEqual([]);
    expect(result.internalErrors, report).toBe(0);
    expect(result.alive, report).toBe(true);
    expect(result.healthz, report).toMatch(/^200/);
    expect(result.missing, report).toEqual([]);
    expect(result.missingArguments, report).toEqual([]);
    const fiveHundreds = [...result.byStatus].filter(([label]) => /^5\d\d$/.test(label));
    expect(fiveHundreds, report).toEqual([]);
  },
  timeoutFor(Math.max(...campaigns.map((c) => c.requests))),
);
