import fc from 'fast-check';
import { authArb, type FuzzCase, type FuzzContext, type HttpBody, queryString } from './cases.ts';
import { fileRecipe } from './files.ts';
import type { FormPart } from './multipart.ts';
import { Huge } from './wire.ts';

// Attacks on the document and the request around it rather than on one field's arguments: deep nesting, many
// aliases, huge documents, the same field selected over and over, fragment cycles and fragment bombs, directive
// abuse, garbage tokens, odd operation names and variables, batched and malformed request bodies, and broken
// GraphQL multipart requests.

const repeat = (n: number, f: (i: number) => string, sep = ' ') => Array.from({ length: n }, (_, i) => f(i)).join(sep);

/** vendors { invoices { nodes { vendor { … } } } } nested `levels` times: valid fields all the way down. */
const nestedVendors = (levels: number) => {
  let inner = 'id';
  for (let i = 0; i < levels; i++) inner = `invoices(first: 100) { nodes { vendor { ${inner} } } }`;
  return `{ vendors(limit: 200) { ${inner} } }`;
};

const documents: fc.Arbitrary<[string, string | Huge]> = fc.oneof(
  fc.integer({ min: 1, max: 60 }).map((n): [string, string] => ['deep valid', nestedVendors(n)]),
  fc.integer({ min: 5, max: 3000 }).map((n): [string, string] => ['deep unknown fields', `{ ${'a { '.repeat(n)}b${' }'.repeat(n)} }`]),
  fc.integer({ min: 100, max: 4990 }).map((n): [string, string] => ['deep list literal', `{ vendors(limit: ${'['.repeat(n)}${']'.repeat(n)}) { id } }`]),
  fc
    .integer({ min: 100, max: 2490 })
    .map((n): [string, string] => ['deep object literal', `{ invoices(filter: ${'{ a: '.repeat(n)}1${' }'.repeat(n)}) { nodes { id } } }`]),
  fc
    .integer({ min: 10, max: 3000 })
    .map((n): [string, string] => ['deep introspection', `{ __schema { types { ${'fields { type { ofType { '.repeat(n)}name${' } } }'.repeat(n)} } } }`]),
  fc.integer({ min: 20, max: 2500 }).map((n): [string, string] => ['aliases', `{ ${repeat(n, (i) => `a${i}: viewer { name }`)} }`]),
  fc
    .integer({ min: 2, max: 200 })
    .map((n): [string, string] => ['aliased lists', `{ ${repeat(n, (i) => `a${i}: invoices(first: 100) { nodes { id lineItems { description } } }`)} }`]),
  fc.integer({ min: 2, max: 3000 }).map((n): [string, string] => ['repeated fields', `{ ${'viewer { name tenants { id } } '.repeat(n)} }`]),
  fc
    .integer({ min: 2, max: 40 })
    .map((n): [string, string] => [
      'fragment bomb',
      `query { ...F0 } ${repeat(n, (i) => `fragment F${i} on Query { ${i === n - 1 ? 'viewer { name }' : `...F${i + 1} ...F${i + 1}`} }`)}`,
    ]),
  fc
    .integer({ min: 1, max: 600 })
    .map((n): [string, string] => [
      'fragment chain',
      `query { ...F0 } ${repeat(n, (i) => `fragment F${i} on Query { viewer { name } ${i === n - 1 ? '' : `...F${i + 1}`} }`)}`,
    ]),
  fc.constantFrom<[string, string]>(
    ['fragment cycle', 'query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }'],
    ['fragment self cycle', 'query { ...A } fragment A on Query { viewer { name } ...A }'],
    ['fragment cycle in nested', 'query { viewer { ...V } } fragment V on Viewer { tenants { stores { id } } ...W } fragment W on Viewer { ...V }'],
    ['fragment on wrong type', 'query { ...A } fragment A on Invoice { id }'],
    ['unknown fragment', 'query { ...Nope }'],
    ['inline fragment cycle-ish', `{ ${'... on Query { '.repeat(200)}viewer { name }${' }'.repeat(200)} }`],
    ['directive pile', `{ viewer { name ${'@skip(if: false) '.repeat(500)} } }`],
    ['unknown directive', '{ viewer @nope(x: 1) { name } }'],
    ['directive on operation', 'query @deprecated { viewer { name } }'],
    ['include with bad var', 'query($x: String) { viewer @include(if: $x) { name } }'],
    ['many operations', 'query A { viewer { name } } query B { branding { displayName } } mutation C { deleteShapeProfile(name: "zz") }'],
    ['anonymous and named', '{ viewer { name } } query A { viewer { name } }'],
    ['mutation and subscription', 'subscription S { serverTime events { type } }'],
    ['undefined variable', '{ invoice(id: $nope) { id } }'],
    ['unused variables', `query(${repeat(1000, (i) => `$v${i}: Int`, ', ')}) { viewer { name } }`],
    ['bad default', 'query($n: Int = "x", $u: UUID = "nope") { invoices(first: $n) { nodes { id } } invoice(id: $u) { id } }'],
    ['variable list default', 'query($n: [[[Int]]] = [[[1]]]) { viewer { name } }'],
    ['typename only', '{ __typename }'],
    ['type lookup', '{ __type(name: "\\u0000") { name } }'],
    ['unterminated string', '{ search(query: "abc'],
    ['unterminated block string', '{ search(query: """abc'],
    ['nul in source', '{ viewer\u0000 { name } }'],
    ['bad escape', '{ search(query: "\\uD800\\uZZZZ") { totalResults } }'],
    ['only comment', '# nothing here'],
    ['empty', ''],
    ['braces', '{{{{}}}}'],
    ['numbers', '{ vendors(limit: 1e400, offset: -0.0) { id } }'],
    ['huge int literal', `{ vendors(limit: ${'9'.repeat(400)}) { id } }`],
    ['object literal abuse', '{ invoices(filter: { tenantId: { a: 1 }, status: [processed], __proto__: 1 }) { nodes { id } } }'],
  ),
  fc.constantFrom(100_000, 1_000_000).map((n): [string, Huge] => ['huge whitespace', new Huge(' ', n)]),
  fc.constantFrom(10_000, 100_000).map((n): [string, string] => ['huge comment', `# ${'x'.repeat(n)}\n{ viewer { name } }`]),
  fc.constantFrom(100_000, 1_000_000).map((n): [string, string] => ['huge string literal', `{ search(query: "${'a'.repeat(n)}") { totalResults } }`]),
  fc.constantFrom(100_000, 1_000_000).map((n): [string, string] => ['huge block string', `{ search(query: """${'a\n'.repeat(n / 2)}""") { totalResults } }`]),
  fc.integer({ min: 4000, max: 100_000 }).map((n): [string, string] => ['many tokens', `{ viewer { name ${' __typename'.repeat(n)} } }`]),
  fc.string({ unit: 'binary', maxLength: 200 }).map((s): [string, string] => ['garbage', s]),
  fc
    .array(
      fc.constantFrom('{', '}', '(', ')', '[', ']', '$', '!', ':', '...', '@', '=', '|', '&', 'query', 'viewer', 'fragment', 'on', '"x"', '1', 'null', '#'),
      { maxLength: 60 },
    )
    .map((t): [string, string] => ['token soup', t.join(' ')]),
);

/** The JSON request around a document, or something that is not one. */
function requestBody(query: string | Huge): fc.Arbitrary<[string, unknown]> {
  return fc.oneof(
    { weight: 10, arbitrary: fc.constant<[string, unknown]>(['', { query }]) },
    {
      weight: 3,
      arbitrary: fc.constantFrom<[string, unknown]>(
        [' (batched)', [{ query }, { query }]],
        [' (empty batch)', []],
        [' (query number)', { query: 123 }],
        [' (query null)', { query: null }],
        [' (query object)', { query: { kind: 'Document' } }],
        [' (no query)', { variables: {} }],
        [' (variables array)', { query, variables: [1, 2] }],
        [' (variables string)', { query, variables: '{"a":1}' }],
        [' (variables huge)', { query, variables: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`v${i}`, i])) }],
        [' (operationName missing)', { query, operationName: 'Nope' }],
        [' (operationName object)', { query, operationName: { a: 1 } }],
        [' (operationName huge)', { query, operationName: new Huge('A', 100_000) }],
        [' (persisted query)', { query, extensions: { persistedQuery: { version: 1, sha256Hash: 'abc' } } }],
        [' (persisted hash only)', { extensions: { persistedQuery: { version: 1, sha256Hash: '0'.repeat(64) } } }],
        [' (extensions string)', { query, extensions: 'x' }],
      ),
    },
  );
}

/** GraphQL multipart requests that break the spec. */
const brokenMultipart: fc.Arbitrary<[string, FormPart[]]> = fc
  .tuple(
    fileRecipe,
    fc.constantFrom<[string, Array<[string, string] | 'file' | 'files11'>]>(
      [
        'operations not JSON',
        [
          ['operations', '{nope'],
          ['map', '{}'],
        ],
      ],
      [
        'operations batch',
        [
          ['operations', '[{"query":"{ viewer { name } }"}]'],
          ['map', '{}'],
        ],
      ],
      [
        'operations null',
        [
          ['operations', 'null'],
          ['map', '{}'],
        ],
      ],
      ['no map', [['operations', '{"query":"mutation($f: Upload!) { uploadInvoice(file: $f) { invoices { id } } }","variables":{"f":null}}'], 'file']],
      [
        'map not JSON',
        [
          ['operations', '{"query":"{ viewer { name } }"}'],
          ['map', '[['],
        ],
      ],
      [
        'map array',
        [
          ['operations', '{"query":"{ viewer { name } }"}'],
          ['map', '[1]'],
        ],
      ],
      [
        'map to missing part',
        [
          ['operations', '{"query":"mutation($f: Upload!) { uploadInvoice(file: $f) { invoices { id } } }","variables":{"f":null}}'],
          ['map', '{"7":["variables.f"]}'],
        ],
      ],
      ['map proto path', [['operations', '{"query":"{ viewer { name } }","variables":{}}'], ['map', '{"0":["variables.__proto__.polluted"]}'], 'file']],
      [
        'map constructor path',
        [['operations', '{"query":"{ viewer { name } }","variables":{}}'], ['map', '{"0":["variables.constructor.prototype.x"]}'], 'file'],
      ],
      ['map outside variables', [['operations', '{"query":"{ viewer { name } }"}'], ['map', '{"0":["query"]}'], 'file']],
      [
        'map to non-null slot',
        [
          ['operations', '{"query":"mutation($f: Upload!) { uploadInvoice(file: $f) { invoices { id } } }","variables":{"f":"x"}}'],
          ['map', '{"0":["variables.f"]}'],
          'file',
        ],
      ],
      ['map deep path', [['operations', '{"query":"{ viewer { name } }","variables":{"a":[[null]]}}'], ['map', '{"0":["variables.a.0.0"]}'], 'file']],
      ['map paths not strings', [['operations', '{"query":"{ viewer { name } }","variables":{"f":null}}'], ['map', '{"0":[1,{"a":1}]}'], 'file']],
      ['map empty paths', [['operations', '{"query":"{ viewer { name } }","variables":{"f":null}}'], ['map', '{"0":[]}'], 'file']],
      [
        'file into a String',
        [
          ['operations', '{"query":"query($q: String!) { search(query: $q) { totalResults } }","variables":{"q":null}}'],
          ['map', '{"0":["variables.q"]}'],
          'file',
        ],
      ],
      [
        'file into JSONObject',
        [
          ['operations', '{"query":"mutation($s: JSONObject!) { setShapeProfile(name: \\"f\\", spec: $s) { name } }","variables":{"s":null}}'],
          ['map', '{"0":["variables.s"]}'],
          'file',
        ],
      ],
      ['eleven files', [['operations', '{"query":"{ viewer { name } }","variables":{}}'], ['map', '{}'], 'files11']],
      ['no operations', [['map', '{}'], 'file']],
    ),
  )
  .map(([file, [name, spec]]) => [
    name,
    spec.flatMap((p): FormPart[] => {
      if (p === 'file') return [{ name: '0', filename: 'a.pdf', contentType: 'application/pdf', content: { file } }];
      if (p === 'files11') return Array.from({ length: 11 }, (_, i) => ({ name: String(i), filename: 'a.pdf', content: { file } }));
      return [{ name: p[0], content: { text: p[1] } }];
    }),
  ]);

const JSON_CONTENT_TYPES = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/graphql', 'application/x-www-form-urlencoded', 'application/graphql-response+json', '') },
);

export function graphqlDocumentCaseArb(ctx: FuzzContext): fc.Arbitrary<FuzzCase> {
  const auth = authArb('either', ctx);
  const overHttp = fc.tuple(documents, auth, JSON_CONTENT_TYPES).chain(([[name, query], headers, contentType]) =>
    requestBody(query).map(([, value]): FuzzCase => ({
      channel: 'http',
      route: `graphql document: ${name}`,
      method: 'POST',
      url: '/graphql',
      headers: { ...headers, 'content-type': contentType },
      body: { type: 'json', value } satisfies HttpBody,
    })),
  );
  const overGet = fc.tuple(documents, auth, fc.constantFrom('', 'mutation', 'subscription')).map(([[name, query], headers, kind]): FuzzCase => ({
    channel: 'http',
    route: `graphql document over GET: ${kind || name}`,
    method: 'GET',
    url: `/graphql${queryString([['query', kind === 'mutation' ? 'mutation { deleteShapeProfile(name: "zz") }' : kind === 'subscription' ? 'subscription { serverTime }' : query]])}`,
    headers: { ...headers, 'apollo-require-preflight': 'true' },
  }));
  const overWs = fc.tuple(documents, fc.constant(ctx.keys.demo)).map(([[name, query], key]): FuzzCase => ({
    channel: 'ws',
    route: `graphql-ws document: ${name}`,
    init: { apiKey: key },
    frames: [{ json: { id: '1', type: 'subscribe', payload: { query } } }],
    listenMs: 0,
  }));
  const multipart = fc.tuple(brokenMultipart, auth, fc.stringMatching(/^[a-z0-9]{6,20}$/)).map(([[name, parts], headers, b]): FuzzCase => ({
    channel: 'http',
    route: `graphql multipart: ${name}`,
    method: 'POST',
    url: '/graphql',
    headers: { ...headers, 'apollo-require-preflight': 'true', 'content-type': `multipart/form-data; boundary=--b${b}` },
    body: { type: 'form', form: { boundary: `--b${b}`, contentType: `multipart/form-data; boundary=--b${b}`, parts, ending: 'closed', cutAt: 1 } },
  }));
  return fc.oneof({ weight: 8, arbitrary: overHttp }, { weight: 1, arbitrary: overGet }, { weight: 2, arbitrary: overWs }, { weight: 2, arbitrary: multipart });
}
