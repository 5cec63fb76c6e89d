import fc from 'fast-check';
import { type FuzzCase, queryString } from './cases.ts';
import { fileRecipeWithOversize } from './files.ts';
import type { Operation } from './graphql-requests.ts';
import { fileName, type MultipartForm } from './multipart.ts';
import { toJsonText } from './wire.ts';

// How an operation travels: POST JSON (mostly), GET (queries; a mutation over GET is refused), the GraphQL multipart
// request spec when it carries files, or graphql-ws — where subscriptions go, and queries and mutations may.

export function graphqlTransportArb(op: Operation, auth: Record<string, string>): fc.Arbitrary<FuzzCase> {
  const variables = Object.fromEntries(op.vars.map((v) => [v.name, v.value]));
  const uploads = op.vars.filter((v) => v.upload);
  const lazy = (make: () => FuzzCase) => fc.constant(null).map(() => ({ ...make(), args: op.args }));
  const post = lazy(() => ({
    channel: 'http',
    route: op.route,
    method: 'POST',
    url: '/graphql',
    headers: { ...auth, 'content-type': 'application/json' },
    body: { type: 'json', value: { query: op.document, variables, operationName: 'Fuzz' } },
  }));
  const get = lazy(() => ({
    channel: 'http',
    route: op.route,
    method: 'GET',
    url: `/graphql${queryString([
      ['query', op.document],
      ['variables', toJsonText(variables)],
    ])}`,
    headers: { ...auth, 'apollo-require-preflight': 'true' },
  }));
  const ws = lazy(() => ({
    channel: 'ws',
    route: op.route,
    init: { apiKey: auth['x-api-key'] ?? auth.authorization?.replace(/^Bearer\s+/i, '') },
    frames: [{ json: { id: '1', type: 'subscribe', payload: { query: op.document, variables, operationName: 'Fuzz' } } }],
    listenMs: op.kind === 'subscription' ? 150 : 0,
  }));
  const multipart = multipartArb(
    op,
    variables,
    uploads.map((u) => u.name),
  ).map<FuzzCase>((form) => ({
    args: op.args,
    channel: 'http',
    route: op.route,
    method: 'POST',
    url: '/graphql',
    headers: { ...auth, 'apollo-require-preflight': 'true', 'content-type': form.contentType },
    body: { type: 'form', form },
  }));
  if (op.kind === 'subscription') return fc.oneof({ weight: 8, arbitrary: ws }, { weight: 1, arbitrary: post });
  return fc.oneof(
    { weight: uploads.length ? 2 : 10, arbitrary: post },
    { weight: 1, arbitrary: get },
    { weight: 2, arbitrary: ws },
    { weight: uploads.length ? 10 : 0, arbitrary: multipart },
  );
}

const boundarySuffix = fc.stringMatching(/^[A-Za-z0-9]{8,30}$/);

/** operations + map + one file part per Upload variable (GraphQL multipart request spec). */
function multipartArb(op: Operation, variables: Record<string, unknown>, uploadVars: string[]): fc.Arbitrary<MultipartForm> {
  const files = fc.tuple(...uploadVars.map(() => fc.record({ filename: fileName, file: fileRecipeWithOversize })));
  return fc.tuple(files, boundarySuffix).map(([chosen, b]) => {
    const boundary = `----fuzzgql${b}`;
    const map = Object.fromEntries(uploadVars.map((name, i) => [String(i), [`variables.${name}`]]));
    return {
      boundary,
      contentType: `multipart/form-data; boundary=${boundary}`,
      parts: [
        { name: 'operations', content: { text: toJsonText({ query: op.document, variables, operationName: 'Fuzz' }) } },
        { name: 'map', content: { text: JSON.stringify(map) } },
        ...chosen.map((c, i) => ({ name: String(i), filename: c.filename, contentType: 'application/octet-stream', content: { file: c.file } })),
      ],
      ending: 'closed' as const,
      cutAt: 1,
    };
  });
}
