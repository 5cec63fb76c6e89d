import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { authArb, encodeSegment, type FuzzContext, type HttpBody, type HttpCase, idempotencyArb, oddJsonBody, queryString, rawSegment } from './cases.ts';
import { formArb } from './multipart.ts';
import { type Slot, slotFromOpenApi } from './slots.ts';
import { hostile, hostilityArb, plausible, valueFor } from './values.ts';

// Requests for every path and method of schema/openapi.yaml: path parameters (seeded ids, random UUIDs, malformed
// and raw-encoded segments), query parameters per the spec (good, bad, repeated, unknown), and bodies built from the
// request schema — JSON objects whose fields are plausible or hostile, malformed JSON, other content types, and
// hand-written multipart for the upload routes.

type Doc = Record<string, any>;

export interface RestOperation {
  method: string;
  path: string;
  keyHeader: 'x-api-key' | 'bearer';
  pathParams: Slot[];
  queryParams: Slot[];
  body?: { kind: 'json' | 'multipart'; slot: Slot };
}

export function loadRestOperations(file = new URL('../../schema/openapi.yaml', import.meta.url)): RestOperation[] {
  const doc = parseYaml(readFileSync(file, 'utf8')) as Doc;
  const ops: RestOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Doc)) {
    for (const [method, op] of Object.entries(item as Doc)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const params = ((op.parameters ?? []) as Doc[]).map((p) => (p.$ref ? resolveRef(p.$ref, doc) : p));
      const slotsIn = (where: string) => params.filter((p) => p.in === where).map((p) => slotFromOpenApi(p.schema ?? {}, p.name, doc));
      const content = op.requestBody?.content as Doc | undefined;
      const json = content?.['application/json']?.schema;
      const multipart = content?.['multipart/form-data']?.schema;
      ops.push({
        method: method.toUpperCase(),
        path,
        keyHeader: (op.security as Doc[] | undefined)?.some((s) => 'bearer' in s) ? 'bearer' : 'x-api-key',
        pathParams: slotsIn('path'),
        queryParams: slotsIn('query'),
        ...(json ? { body: { kind: 'json' as const, slot: slotFromOpenApi(json, 'body', doc) } } : {}),
        ...(multipart ? { body: { kind: 'multipart' as const, slot: slotFromOpenApi(multipart, 'body', doc) } } : {}),
      });
    }
  }
  return ops;
}

function resolveRef(ref: string, doc: Doc): Doc {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((node: Doc, key) => node[key], doc);
}

export const routeName = (op: RestOperation) => `${op.method} ${op.path}`;

/** Requests for one operation. */
export function restCaseArb(op: RestOperation, ctx: FuzzContext): fc.Arbitrary<HttpCase> {
  const legacy = op.path.startsWith('/api/partner/');
  const auth = authArb(op.keyHeader, ctx, legacy ? 8 : 1);
  const levels = new Map(([0, 1, 4] as const).map((h) => [h, restCaseAt(op, ctx, h, auth)]));
  return hostilityArb.chain((h) => levels.get(h)!);
}

function restCaseAt(op: RestOperation, ctx: FuzzContext, hostility: 0 | 1 | 4, auth: fc.Arbitrary<Record<string, string>>): fc.Arbitrary<HttpCase> {
  {
    const segment = (slot: Slot) =>
      fc.oneof({ weight: 12, arbitrary: valueFor(slot, ctx.ids, hostility).map(encodeSegment) }, { weight: hostility ? 1 : 0, arbitrary: rawSegment });
    const path = fc
      .tuple(...op.pathParams.map((p) => segment(p).map((v) => [p.name, v] as const)))
      .map((pairs) => pairs.reduce((url, [name, v]) => url.replace(`{${name}}`, v), op.path));
    const query = fc
      .tuple(
        ...op.queryParams.map((p) => fc.option(valueFor(p, ctx.ids, hostility), { freq: 3, nil: undefined }).map((v) => [p.name, v] as [string, unknown])),
        fc.oneof(
          { weight: 8, arbitrary: fc.constant(undefined) },
          {
            weight: hostility ? 1 : 0,
            arbitrary: fc.constantFrom<[string, unknown]>(['unknown', 'x'], ['limit', ['1', '2']], ['q', ''], ['a[b]', 'c'], ['', ''], ['\u0000', '\u0000']),
          },
        ),
      )
      .map((pairs) => queryString(pairs.filter((p): p is [string, unknown] => p !== undefined)));
    return fc
      .record({
        path,
        query,
        auth,
        idempotency: op.method === 'POST' ? idempotencyArb : fc.constant({}),
        body: bodyArb(op, ctx, hostility),
      })
      .map(({ path: p, query: q, auth, idempotency, body }): HttpCase => ({
        channel: 'http',
        route: routeName(op),
        method: op.method,
        url: p + q,
        headers: { ...auth, ...idempotency, ...(body?.contentType !== undefined ? { 'content-type': body.contentType } : {}) },
        ...(body ? { body: body.body } : {}),
      }));
  }
}

function bodyArb(op: RestOperation, ctx: FuzzContext, hostility: 0 | 1 | 4): fc.Arbitrary<{ body: HttpBody; contentType?: string } | undefined> {
  if (!op.body) return fc.constant(undefined);
  const { slot } = op.body;
  if (op.body.kind === 'multipart') {
    const fields = slot.kind === 'object' ? Object.values(slot.fields) : [];
    const form = formArb(fields.map((f) => ({ name: f.name, isFile: f.kind === 'upload', text: valueFor(f, ctx.ids, hostility) })));
    return form.map((f) => ({ body: { type: 'form' as const, form: f }, contentType: f.contentType }));
  }
  // The body's fields are plausible or hostile; now and then the whole body is something else.
  const value = fc.oneof({ weight: 10, arbitrary: plausible(slot, ctx.ids, hostility) }, { weight: hostility ? 1 : 0, arbitrary: hostile(slot, ctx.ids) });
  return fc.oneof(
    { weight: 14, arbitrary: value.map((v) => ({ body: { type: 'json' as const, value: v }, contentType: 'application/json' })) },
    { weight: hostility ? 2 : 0, arbitrary: value.chain(oddJsonBody) },
    { weight: hostility ? 1 : 0, arbitrary: fc.constant(undefined) },
  );
}
