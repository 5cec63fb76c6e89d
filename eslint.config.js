// `npm run lint`. Type-aware typescript-eslint (it needs the `typescript` 5.9 compiler API; `npm run typecheck` and
// `npm run build` use TypeScript 7, installed as `typescript7`). Three kinds of rules, kept few on purpose:
//   1. promises: none left floating or passed where a callback's result is ignored;
//   2. configuration: `process.env` is read only by src/platform/config.ts;
//   3. layering: the import boundaries of docs/architecture.md ("Layering rules"), with its known exceptions.
// No formatting rules: a formatter is applied to the whole tree separately.
import tseslint from 'typescript-eslint';

// ---------------------------------------------------------------------------------------------------------------
// Layering. ESLint keeps only the last `no-restricted-imports` that applies to a file, so each block below lists
// every restriction of its files. Patterns are gitignore-style globs matched against the import specifier.
const restrict = (group, message, extra = {}) => ({ group, message, ...extra });

const NOT_HTTP = restrict(
  ['**/platform/http/**', 'fastify', '@fastify/*', '@apollo/server', '@apollo/server/*', '@as-integrations/*'],
  'Only the transport (platform/http, app/) knows HTTP: pass plain values (platform/lib/uploaded-file.ts, platform/log.ts).',
);
const NOT_WEB = restrict(['**/web/**'], 'Nothing below the pages imports them.');
const NOT_MODULES = restrict(['**/modules/**'], 'platform/ and extraction/ hold no business rules: they may not import modules/.');
const NOT_APP = restrict(['**/app/**'], 'app/ is the wiring: only the entries import it.');
// Modules may name the request context's type (resolvers and access checks take it as an argument).
const APP_CONTEXT_TYPES_ONLY = restrict(
  ['**/app/**', '!**/app/context.ts'],
  'Modules import from app/ only the type of the request context (app/context.ts) — resolvers also app/loaders.ts.',
);
// ... and the resolver types generated from the SDL (app/generated/resolvers.ts, `npm run codegen`).
// (A glob cannot re-include a file below an excluded folder, hence a regular expression.)
const APP_CONTEXT_AND_LOADERS = {
  regex: '/app/(?!context\\.ts$|loaders\\.ts$|generated/resolvers\\.ts$)',
  message: 'Resolvers import from app/ only the request context, the loaders and the generated resolver types.',
};
const CONTEXT_TYPE = restrict(['**/app/context.ts'], 'Only the type of the request context.', { allowTypeImports: true });
const SERVICES_GRAPH_TYPE = restrict(['**/app/services.ts'], 'Services are built only in app/compose.ts: elsewhere import the Services type only.', {
  allowTypeImports: true,
});
const NOT_DB = restrict(['**/platform/db/**'], 'Only *.queries.ts (and the wiring) touch the database layer.');
const NOT_QUERIES = restrict(['**/*.queries.ts'], 'Queries are reached through their service.');
const SERVICES_AS_TYPES = restrict(['**/*.service.ts'], 'Resolvers call services through ctx.services; import their types only.', { allowTypeImports: true });
const NOT_RESOLVERS = restrict(['**/*.resolvers.ts'], 'REST routes run stored operations; they never call resolvers.');
const NOT_SERVICES = restrict(['**/*.service.ts'], 'REST routes hold no logic: a stored operation plus two mappings.');
const NOT_UPPER_LAYERS = restrict(
  ['**/*.service.ts', '**/*.resolvers.ts', '**/*.routes.ts'],
  'Queries import only platform/db/types.ts, platform/db/vector-value.ts, Kysely and other queries.',
);
// (A glob cannot re-include a file below an excluded folder, hence regular expressions for "all but".)
const PLATFORM_BUT_TABLE_TYPES = {
  regex: '/platform/(?!db/types\\.ts$|db/vector-value\\.ts$)',
  message: 'Queries import only platform/db/types.ts, platform/db/vector-value.ts, Kysely and other queries.',
};
const NOT_REST = restrict(['**/platform/rest/**'], 'Only *.routes.ts use the REST router helpers.');

const layers = (files, patterns, ignores = []) => ({
  files,
  ignores,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

const layering = [
  // platform/: infrastructure under everything. Exceptions (docs/architecture.md, "Known exceptions"):
  layers(
    ['src/platform/**/*.ts'],
    [NOT_MODULES, NOT_APP, NOT_WEB, restrict(['**/extraction/**'], 'platform/ does not import the extraction engine.')],
    ['src/platform/config.ts', 'src/platform/auth/**', 'src/platform/http/**'],
  ),
  // - the config module validates the extraction settings with the engine's own defaults and types;
  layers(['src/platform/config.ts'], [NOT_MODULES, NOT_APP, NOT_WEB]),
  // - auth reads the key and session tables through these two queries files;
  layers(
    ['src/platform/auth/**/*.ts'],
    [
      {
        regex: '/modules/(?!partners/api-keys\\.queries\\.ts$|embed/users\\.queries\\.ts$)',
        message: 'platform/auth reads only the api-keys and users queries.',
      },
      NOT_APP,
      NOT_WEB,
      restrict(['**/extraction/**'], 'platform/ does not import the extraction engine.'),
    ],
  ),
  // - the GraphQL transport takes the context factory's type from app/context.ts.
  layers(
    ['src/platform/http/**/*.ts'],
    [
      NOT_MODULES,
      restrict(['**/app/**', '!**/app/context.ts'], 'platform/http imports from app/ only the type of the request context.'),
      CONTEXT_TYPE,
      NOT_WEB,
      restrict(['**/extraction/**'], 'platform/ does not import the extraction engine.'),
    ],
  ),

  // extraction/: the engine; it knows no domain, no transport, no database.
  layers(['src/extraction/**/*.ts'], [NOT_MODULES, NOT_APP, NOT_WEB, NOT_HTTP, NOT_DB, NOT_REST]),

  // modules/: services, models and everything else that is not a resolver, a route or a queries file.
  layers(
    ['src/modules/**/*.ts'],
    [NOT_HTTP, NOT_WEB, APP_CONTEXT_TYPES_ONLY, CONTEXT_TYPE, NOT_REST],
    ['src/modules/**/*.resolvers.ts', 'src/modules/**/*.routes.ts', 'src/modules/**/*.queries.ts'],
  ),
  layers(['src/modules/**/*.resolvers.ts'], [NOT_HTTP, NOT_WEB, APP_CONTEXT_AND_LOADERS, NOT_DB, NOT_QUERIES, SERVICES_AS_TYPES, NOT_REST]),
  layers(['src/modules/**/*.routes.ts'], [NOT_HTTP, NOT_WEB, NOT_APP, NOT_DB, NOT_QUERIES, NOT_RESOLVERS, NOT_SERVICES]),
  layers(['src/modules/**/*.queries.ts'], [NOT_UPPER_LAYERS, PLATFORM_BUT_TABLE_TYPES, NOT_APP, NOT_WEB, NOT_HTTP]),

  // web/: pages run GraphQL through platform/graphql/executor.ts, never the database directly.
  layers(['src/web/**/*.ts'], [NOT_DB, NOT_QUERIES, SERVICES_GRAPH_TYPE]),
  // The entries: only app/compose.ts builds the service graph.
  layers(['src/main.ts', 'src/cli.ts'], [SERVICES_GRAPH_TYPE]),
  // The corpus keeps its labels apart from the engine's (issue 48): it never reads the engine's phrase lists.
  layers(
    ['corpus/**/*.ts'],
    [restrict(['**/extraction/lang/**', '**/extraction/fields/**'], "The corpus draws its labels from corpus/vocabulary, never from the engine's lists.")],
  ),
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'data/**', 'test-artifacts/**', '.tmp/**', '**/*.js', '**/*.mjs'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    // Off: sources carry directives for rules of ESLint's recommended set, which is not enabled (yet).
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through src/platform/config.ts (loadConfig).' }],
    },
  },
  // Justified readers of process.env besides the config module: tests and benchmarks start child processes and
  // servers with an environment of their own and read their own knobs (BENCH_SUBSCRIBERS, CHROMIUM_PATH, …);
  // the corpus generator is a standalone tool; the client examples are a partner's programs (PARTNER_API_URL/KEY).
  {
    files: ['src/platform/config.ts', 'test/**/*.ts', 'bench/**/*.ts', 'corpus/**/*.ts', 'examples/**/*.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  ...layering,
);
