import { isIP } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { classifyAddress } from '../../src/platform/net/outbound-guard.ts';
import { DEFAULT_SEED, runCampaign } from './campaign.ts';
import { formatResult } from './report.ts';
import { safeUrl } from './safe-urls.ts';
import { startFuzzTarget, type FuzzTarget } from './target.ts';
import { Huge, toText } from './wire.ts';

// Issue 13: the bounded, seeded fuzz run of CI (about a minute here) against the real process — every REST route of
// schema/openapi.yaml and every GraphQL field and argument with generated bad input. No response may be a 5xx (or
// carry an internal server error), the process must stay up and /healthz answer. `npm run fuzz` is the long run;
// FUZZ_SEED and FUZZ_REQUESTS change this one (a failure prints the seed and the shrunk request to replay).

const SEED = Number(process.env.FUZZ_SEED ?? DEFAULT_SEED);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2500);

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

test(`${REQUESTS} seeded requests (seed ${SEED}) over every route and argument: no 5xx, the process alive, /healthz answering`, async () => {
  const result = await runCampaign(target, { seed: SEED, requests: REQUESTS });
  const report = formatResult(result, target.output());
  expect(result.failure, report).toBeUndefined();
  expect(result.alive, report).toBe(true);
  expect(result.healthz, report).toMatch(/^200/);
  expect(result.missing, report).toEqual([]);
  expect(result.missingArguments, report).toEqual([]);
  const fiveHundreds = [...result.byStatus].filter(([label]) => /^5\d\d$/.test(label));
  expect(fiveHundreds, report).toEqual([]);
}, 600_000);
