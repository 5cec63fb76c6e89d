import { testConfig } from './vitest.config.ts';

// `npm run test:postgres`: the tests whose databases come from test/helpers/db.ts, on the PostgreSQL server of
// TEST_DATABASE_URL (`eval "$(tools/postgres.sh start)"` gives one): global setup migrates a template database, each
// test file copies it (CREATE DATABASE … TEMPLATE) and reaches it through the production `pg` path.
// Not here, on purpose (they run in `npm test` only):
// - test/db/pglite-dialect.test.ts compares the embedded driver with `pg` on one PGlite: PGlite is its subject;
// - test/api/responsiveness and fair-uploads: their subject is the event loop and the reading pool under OCR load;
// - unit, extraction, embeddings, corpus, storage, contract and fuzz tests use no database or none of their own;
// - browser tests (test/e2e/*-browser) and the server-process tests on DATA_DIR (start, npm-start-signals,
//   crash-recovery, webhook-crash, the seed CLI) are about the embedded database, its lock and the process.
if (!process.env.TEST_DATABASE_URL) {
  throw new Error('test:postgres needs TEST_DATABASE_URL: eval "$(tools/postgres.sh start)" && TEST_DATABASE_URL=$DATABASE_URL npm run test:postgres');
}

// One module graph per worker (isolate: false): every file composes its own app on its own database, no test here
// mocks a module, and the one global patch (adapter.test.ts watching outgoing connections) is undone in its
// afterAll. Importing the app again for every file cost ~4 s a file.
export default testConfig([
  {
    name: 'postgres',
    include: [
      'test/api/**/*.test.ts',
      'test/db/{invoice-recording,extraction-recovery,pg-server,pg-prepared,webhook-attempts,event-dispatch,search-graphs}.test.ts',
      'test/e2e/multi-instance.test.ts',
    ],
    exclude: ['test/api/{responsiveness,fair-uploads}.test.ts'],
    isolate: false,
  },
]);
