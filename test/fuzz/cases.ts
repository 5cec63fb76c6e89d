import fc from 'fast-check';
import type { MultipartForm } from './multipart.ts';
import type { SeedIds } from './seed.ts';
import { Huge, toText } from './wire.ts';

// One generated request ("case") and the pieces every generator shares: who is calling, and how odd the body's
// framing is. A case is plain data (recipes for the big parts), printed as is when it fails.

export interface FuzzContext {
  ids: SeedIds;
  keys: { demo: string; legacy: string };
}

export type HttpBody = { type: 'json'; value: unknown } | { type: 'text'; text: string | Huge } | { type: 'form'; form: MultipartForm };

export interface HttpCase {
  channel: 'http';
  /** What is being exercised, for the coverage table: `POST /api/v1/partner/tenants`, `graphql Query.vendors`. */
  route: string;
  method: string;
  /** Path and query string. */
  url: string;
  headers: Record<string, string>;
  body?: HttpBody;
  /** GraphQL arguments given a value, as `Type.field(argument)` (for the coverage table). */
  args?: string[];
}

export interface WsCase {
  channel: 'ws';
  route: string;
  /** The connection_init payload (undefined: no connection_init at all). */
  init: unknown;
  /** Frames after the acknowledgement: a subscribe message, or raw text to break the protocol. */
  frames: Array<{ json: unknown } | { raw: string | Huge }>;
  /** Subscriptions are given this long to emit before the client completes them. */
  listenMs: number;
  args?: string[];
  /** Headers of the upgrade request (a Cookie); `sameOrigin`: with this server's own Origin, as a page of it sends. */
  headers?: Record<string, string>;
  sameOrigin?: boolean;
}

export type FuzzCase = HttpCase | WsCase;

/** Where a family reads its key. */
export type KeyHeader = 'x-api-key' | 'bearer' | 'either';

/** Mostly the right key in the right header; sometimes none, a malformed or unknown one, or the wrong header. */
export function authArb(where: KeyHeader, ctx: FuzzContext, legacyWeight = 1): fc.Arbitrary<Record<string, string>> {
  type Headers = Record<string, string>;
  const put = (key: string): Headers => (where === 'bearer' ? { authorization: `Bearer ${key}` } : { 'x-api-key': key });
  const wrongHeader: Headers = where === 'bearer' ? { 'x-api-key': ctx.keys.demo } : { authorization: `Bearer ${ctx.keys.demo}` };
  return fc.oneof(
    { weight: 30, arbitrary: fc.constant(put(ctx.keys.demo)) },
    { weight: legacyWeight, arbitrary: fc.constant(put(ctx.keys.legacy)) },
    { weight: 1, arbitrary: fc.constant<Headers>({}) },
    {
      weight: 2,
      arbitrary: fc.oneof(
        fc.stringMatching(/^pk_[A-Za-z0-9_-]{32}$/).map(put),
        fc
          .constantFrom('pk_', 'pk_ ', 'PK_x', 'null', `${ctx.keys.demo}x`, ctx.keys.demo.slice(0, -1), `pk_${'a'.repeat(20_000)}`, `${ctx.keys.demo}\t`)
          .map(put),
        fc.constant(wrongHeader),
        fc.constantFrom('Bearer', 'Basic Zm9vOmJhcg==', `bearer  ${ctx.keys.demo}`, `Token ${ctx.keys.demo}`).map((v): Headers => ({ authorization: v })),
      ),
    },
  );
}

/** An Idempotency-Key header now and then (DESIGN §9: every POST), including odd ones. */
export const idempotencyArb: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 12, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.constantFrom('fuzz-1', 'fuzz-2', '', ' ', 'a'.repeat(300), 'é', '\t').map((k) => ({ 'idempotency-key': k })) },
);

/** Bodies that are not the JSON object a route expects: malformed JSON, other types, other content types. */
export function oddJsonBody(valid: unknown): fc.Arbitrary<{ body: HttpBody; contentType?: string }> {
  const json = toText(valid).slice(0, 4000);
  const text = (t: string | Huge, contentType?: string) => ({
    body: { type: 'text' as const, text: t },
    ...(contentType === undefined ? {} : { contentType }),
  });
  return fc.oneof(
    fc.nat(json.length).map((n) => text(json.slice(0, n), 'application/json')),
    fc
      .constantFrom(
        `${json}garbage`,
        `\ufeff${json}`,
        "{'a': 1}",
        '{"a":1,"a":2}',
        '{"a":NaN}',
        '{"a":1e400}',
        '[1,2',
        '',
        'null',
        '[]',
        '"str"',
        '123',
        'true',
        '{"__proto__":{"x":1}}',
        '/* c */ {}',
        '\u0000',
      )
      .map((t) => text(t, 'application/json')),
    fc
      .constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/xml',
        'application/json; charset=latin1',
        'application/json; charset=utf-16',
        'application/vnd.api+json',
        'APPLICATION/JSON',
        'application/json, text/plain',
        'application/octet-stream',
        'multipart/form-data; boundary=x',
        '',
        '*/*',
        'application/json; boundary=\u00ff',
      )
      .map((ct) => text(json, ct)),
    fc.constant(text(`{"a":${'['.repeat(200_000)}`, 'application/json')),
    fc.constant(text(new Huge(' ', 2_000_000), 'application/json')),
  );
}

/** A path segment: percent-encoded as a client would, or raw odd encodings a client should not send. */
export function encodeSegment(value: unknown): string {
  const text = value instanceof Huge ? new Huge(value.unit, Math.min(value.count, 3000)).text() : toText(value);
  return percentEncode(text);
}

export const rawSegment = fc.constantFrom('%zz', '%', '%00', '..', '%2e%2e', '%2F', '%E0%A4%A', '%C0%AF', ';', '%ff%fe', '%u0000', '', '.');

/** UTF-8 percent-encoding that never throws (lone surrogates become U+FFFD, as a browser would send them). */
export function percentEncode(text: string): string {
  return encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
}

/** A query string from (name, value) pairs; arrays repeat the name. Long values are cut to fit Node's 16 KB header limit mostly. */
export function queryString(pairs: Array<[string, unknown]>): string {
  const parts: string[] = [];
  for (const [name, value] of pairs) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) {
      const text = v instanceof Huge ? new Huge(v.unit, Math.min(v.count, 4000)).text() : toText(v);
      parts.push(`${percentEncode(name)}=${percentEncode(text)}`);
    }
  }
  return parts.length ? `?${parts.join('&')}` : '';
}
