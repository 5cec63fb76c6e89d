import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Node resolves `graphql` to its CommonJS main (as graphql-tools, Apollo and graphql-ws load it); Vite
  // would pick the .mjs build for our files and end up with two graphql instances. Use what production uses.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/setup/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { METADATA_SERVER_DETECTION: 'none', AWS_EC2_METADATA_DISABLED: 'true', LOG_LEVEL: 'silent' },
  },
});
