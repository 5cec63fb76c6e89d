import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

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

export default testConfig([
  // The API tests: every file starts its own app on its own database copy. Measured (test/api, 2 workers):
  // 164 s sharing the module graph, 267 s importing the app per file.
  { name: 'api', include: ['test/api/**/*.test.ts'], isolate: false },
  // Tests of one function or class each, in process, on no server, no database file and no module mock: they share
  // one module graph per worker (importing the extraction and GraphQL modules costs ~1 s a file).
  { name: 'unit', include: UNIT, isolate: false },
  // The two-instance test needs a real PostgreSQL (npm run test:postgres): PGlite served over a socket has one
  // backend for every connection, so two processes' named prepared statements (the shared rate limiter's) collide.
  { name: 'other', include: ['test/**/*.test.ts'], exclude: ['test/api/**', ...UNIT, 'test/e2e/multi-instance.test.ts'], isolate: true },
]);
