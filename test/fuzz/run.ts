import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildWordVectorCache } from '../../src/platform/embeddings/word-vector-cache.build.ts';
import { wordVectorCacheExists } from '../../src/platform/embeddings/word-vector-cache.ts';
import { DEFAULT_SEED, runCampaign } from './campaign.ts';
import { formatResult } from './report.ts';
import { startFuzzTarget } from './target.ts';

// npm run fuzz [-- --requests 20000] [--seed 1313] [--path <fast-check path>] [--keep-going]
// The long campaign: every REST route and GraphQL field of the real process. Prints counts by status and by route;
// exits 1 on any response >= 500, a dead process, a silent /healthz, or a route or argument left without requests.

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '20000' },
    seed: { type: 'string', default: String(DEFAULT_SEED) },
    path: { type: 'string' },
    'keep-going': { type: 'boolean' },
  },
});
const requests = Number(values.requests);
const seed = Number(values.seed);
if (!Number.isInteger(requests) || requests < 1 || !Number.isInteger(seed)) {
  process.stderr.write('usage: npm run fuzz -- [--requests N] [--seed S] [--path P]\n');
  process.exit(2);
}

// The same word-vector cache the test suite builds (test/setup/global-setup.ts), so the server starts in seconds.
const cacheDir = fileURLToPath(new URL('../../node_modules/.cache/partner-api/embeddings', import.meta.url));
if (!wordVectorCacheExists(cacheDir)) await buildWordVectorCache(cacheDir);

process.stderr.write(`fuzz: seed ${seed}, ${requests} requests; starting the server…\n`);
const target = await startFuzzTarget({ wordVectorCacheDir: cacheDir });
// Interrupted: no report of the half-run campaign; the target's exit hook kills the server and removes its DATA_DIR.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`fuzz: ${signal}, stopped\n`);
    process.exit(130);
  });
}
let ok = false;
try {
  const result = await runCampaign(target, {
    seed,
    requests,
    path: values.path,
    keepGoing: values['keep-going'],
    progress: (line) => process.stderr.write(`${line}\n`),
    progressEvery: 1000,
  });
  process.stdout.write(`${formatResult(result, target.output())}\n`);
  // A replayed counterexample (--path) is one request: coverage is not expected of it.
  const covered = values.path !== undefined || (result.missing.length === 0 && result.missingArguments.length === 0);
  ok = !result.failure && result.failures.length === 0 && result.alive && result.healthz.startsWith('200') && covered;
} finally {
  await target.stop();
}
process.exit(ok ? 0 : 1);
