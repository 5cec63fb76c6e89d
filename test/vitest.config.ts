import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export interface TestGroup {
  name: string;
  include: string[];
  exclude?: string[];
  /**
   * false: the files of this group share one module graph per worker instead of importing the app again for each
   * file (~4 s a file). Only for groups whose every file composes its own app on its own database, mocks no module
   * and leaves no global state behind.
   */
  isolate: boolean;
}

/**
 * Files that take 20–75 s each (end-to-end, OCR, a 280-invoice corpus, 2,500 fuzz requests; in CI the fuzz file runs
 * 20,000, about 5 minutes) start first, so that a run does not end on one of them: on a fresh clone (no timings yet:
 * vitest orders by project name, then by file size) the 72 s corpus file started at 343 s of a 429 s run and ran with
 * little beside it. Any order is correct.
 */
const LONGEST_FIRST = [
  'test/fuzz/api.fuzz.test.ts',
  'test/extraction/corpus-accuracy.test.ts',
  'test/e2e/crash-recovery.test.ts',
  'test/extraction/reading/reader.test.ts',
  'test/admin/demo-seed.test.ts',
  'test/e2e/start.test.ts',
  'test/corpus/generator.test.ts',
  'test/api/responsiveness.test.ts',
  'test/e2e/webhook-crash.test.ts',
  'test/e2e/npm-start-signals.test.ts',
  'test/e2e/data-dir-lock-namespaces.test.ts',
  'test/extraction/reading/budgets-and-fairness.test.ts',
  'test/corpus/degrade.test.ts',
];

/** vitest's order, except that the files of LONGEST_FIRST come first, in that order. */
class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.indexOf(path.relative(f.project.config.root, f.moduleId));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    return sorted
      .map((f, i) => ({ f, i, r: rank(f) }))
      .sort((a, b) => a.r - b.r || a.i - b.i)
      .map(({ f }) => f);
  }
}

/** The one test configuration: vitest.postgres.config.ts runs part of the suite with it on real PostgreSQL. */
export function testConfig(groups: TestGroup[]) {
  return defineConfig({
    // Node resolves `graphql` to its CommonJS main (as graphql-tools, Apollo and graphql-ws load it); Vite
    // would pick the .mjs build for our files and end up with two graphql instances. Use what production uses.
    resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
    root: fileURLToPath(new URL('..', import.meta.url)),
    test: {
      environment: 'node',
      globalSetup: ['test/setup/global-setup.ts'],
      pool: 'forks',
      sequence: { sequencer: LongestFirstSequencer },
      // At least two files at once (vitest's default is one fewer than the cores: one on this 2-core machine).
      // Most test time is waiting — on server processes, sockets, the reading workers — so two overlap well;
      // measured on the full suite: 12.0 min instead of 21.3 min on the shared machine.
      maxWorkers: Math.max(2, os.availableParallelism()),
      testTimeout: 30_000,
      hookTimeout: 60_000,
      env: { METADATA_SERVER_DETECTION: 'none', AWS_EC2_METADATA_DISABLED: 'true', LOG_LEVEL: 'silent' },
      projects: groups.map((g) => ({
        extends: true,
        test: { name: g.name, include: g.include, exclude: ['**/node_modules/**', ...(g.exclude ?? [])], isolate: g.isolate },
      })),
    },
  });
}

const UNIT = [
  'test/unit/**/*.test.ts',
  'test/extraction/fields/**/*.test.ts',
  'test/extraction/einvoice/**/*.test.ts',
  'test/extraction/lang/**/*.test.ts',
  'test/extraction/categorizer.test.ts',
  'test/embeddings/**/*.test.ts',
  'test/contract/**/*.test.ts',
  'test/storage/**/*.test.ts',
];

/**
 * Also one module graph per worker: files whose tests take about a second in all (their own in-memory database or
 * none, no server process, no module mock), for which importing the app again cost more than their tests (these 21
 * files alone: 34 s isolated, 20 s sharing the module graph).
 */
const LIGHT = [
  'test/corpus/{eval-report,strip-attachments}.test.ts',
  'test/db/{event-dispatch,invoice-recording,pg-server,search-graphs,webhook-attempts}.test.ts',
  'test/extraction/documentai/{config,mapping,client}.test.ts',
  'test/extraction/local-extractor.test.ts',
  'test/extraction/reading/{pdf-attachments,pdf-text,ppocr-deskew,ppocr-lexicon,ppocr-words,read-slices,sniff,text-words}.test.ts',
  'test/sso/*.test.ts',
];

export default testConfig([
  // The API tests: every file starts its own app on its own database copy. Measured (test/api, 2 workers):
  // 164 s sharing the module graph, 267 s importing the app per file.
  { name: 'api', include: ['test/api/**/*.test.ts'], isolate: false },
  // Tests of one function or class each (UNIT) and the light files (LIGHT): one module graph per worker (importing
  // the extraction and GraphQL modules costs ~1 s a file).
  { name: 'unit', include: [...UNIT, ...LIGHT], isolate: false },
  // The two-instance test needs a real PostgreSQL (npm run test:postgres): PGlite served over a socket has one
  // backend for every connection, so two processes' named prepared statements (the shared rate limiter's) collide.
  { name: 'other', include: ['test/**/*.test.ts'], exclude: ['test/api/**', ...UNIT, ...LIGHT, 'test/e2e/multi-instance.test.ts'], isolate: true },
]);
