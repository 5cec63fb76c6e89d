import fc from 'fast-check';
import type { FuzzCase, FuzzContext } from './cases.ts';

// Headers and cookies added to any request, whatever it exercises (issue 47: a malformed session cookie was a 500 on
// every surface, /graphql with a valid key included): session cookies with malformed percent-encoding, huge or many
// cookies; random values for the common headers a server reads and for unknown ones; values over 8 KB and past
// Node's 16 KB header limit; the characters an HTTP parser allows in a value besides the printable ones (tab and
// obs-text, bytes 0x80–0xFF). Node's client refuses to send NUL, CR, LF or DEL in a header, and Node's server
// refuses them before any route (400), so they are not sent. Content-Length and Transfer-Encoding are left to the
// client: a wrong one leaves the request waiting for bytes that never come.

/** Values in Node's header charset: tab, printable ASCII and obs-text (latin1). */
const headerValue = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\t\x20-\x7e]/g, '')) },
  { weight: 2, arbitrary: fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 20 }) },
  { weight: 2, arbitrary: fc.constantFrom('', ' ', '\t', '\t\tx\t', '*', ',', ';', '=', '"', '\\', '%00', '%zz', 'null', '-1', '0', '1e400', '..', 'ÿ') },
  { weight: 1, arbitrary: fc.constantFrom(200, 4096, 8192, 12_000).map((n) => 'v'.repeat(n)) },
);

/** Header names servers and proxies read, and a few a client should not send at all. */
const COMMON = [
  'accept',
  'accept-encoding',
  'accept-language',
  'cache-control',
  'connection',
  'content-encoding',
  'content-language',
  'content-type',
  'cookie',
  'expect',
  'forwarded',
  'host',
  'if-match',
  'if-modified-since',
  'if-none-match',
  'origin',
  'pragma',
  'range',
  'referer',
  'te',
  'upgrade',
  'user-agent',
  'via',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'x-request-id',
  'x-http-method-override',
  'apollo-require-preflight',
  'x-apollo-operation-name',
  'apollographql-client-name',
  'graphql-client-name',
  'idempotency-key',
  'x-api-key',
  'authorization',
  'sec-websocket-protocol',
];

const tokenName = fc.stringMatching(/^[a-z][a-z0-9-]{0,30}$/).map((n) => `x-fuzz-${n}`);

/** The session cookie's value gone wrong: malformed percent-encoding, control-looking escapes, huge, repeated. */
function sessionCookies(ctx: FuzzContext): fc.Arbitrary<string> {
  const seeded = ctx.ids.sessionCookie;
  return fc.oneof(
    fc
      .constantFrom('%zz', '%', '%E0%A4%A', '%C0%AF', '%ff%fe', '%u0000', '%00', '%0d%0a', 'a%', '%%', '%2', '"quoted"', '', '=', '==', 'ÿ')
      .map((v) => `pa_session=${v}`),
    fc.constantFrom('%zz', '%', '%E0%A4').map((v) => `${seeded}${v}`),
    fc.constantFrom(`${seeded}; pa_session=%zz`, `pa_session=%zz; ${seeded}`, `${seeded};;; ;`, 'pa_session', ';', '; ; pa_session=%'),
    fc.constantFrom(4_000, 8_000, 20_000).map((n) => `pa_session=${'%41'.repeat(Math.ceil(n / 3))}`),
  );
}

/** Many cookies (up to 1,000), some of them malformed, the session cookie somewhere among them. */
function manyCookies(ctx: FuzzContext): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(10, 100, 1_000), fc.nat(1_000), fc.boolean())
    .map(([n, at, malformed]) =>
      Array.from({ length: n }, (_, i) => (i === at % n ? ctx.ids.sessionCookie : malformed && i % 7 === 0 ? `c${i}=%zz` : `c${i}=${i}`)).join('; '),
    );
}

/** Extra headers for one request: mostly none; else cookies, common headers with random values, unknown ones. */
export function headerNoiseArb(ctx: FuzzContext): fc.Arbitrary<Record<string, string>> {
  const cookie = fc.oneof({ weight: 3, arbitrary: sessionCookies(ctx) }, { weight: 1, arbitrary: manyCookies(ctx) }).map((c) => ({ cookie: c }));
  const common = fc.dictionary(fc.constantFrom(...COMMON), headerValue, { minKeys: 1, maxKeys: 4 });
  const unknown = fc.dictionary(tokenName, headerValue, { minKeys: 1, maxKeys: 6 });
  const many = fc.constantFrom(100, 1_000, 3_000).map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-fuzz-${i}`, String(i)])));
  const overLong = fc.constantFrom(9_000, 17_000).map((n) => ({ [n > 16_384 ? 'x-fuzz-huge' : 'user-agent']: 'u'.repeat(n) }));
  return fc.oneof(
    { weight: 24, arbitrary: fc.constant({}) },
    { weight: 3, arbitrary: cookie },
    { weight: 2, arbitrary: common },
    { weight: 1, arbitrary: unknown },
    { weight: 1, arbitrary: fc.oneof(many, overLong) },
    { weight: 1, arbitrary: fc.tuple(cookie, common, unknown).map(([a, b, c]) => ({ ...c, ...b, ...a })) },
  );
}

/** A graphql-ws upgrade's cookie, from this server's own Origin (so the session cookie is read), now and then. */
function wsCookieArb(ctx: FuzzContext): fc.Arbitrary<{ cookie: string; withoutKey: boolean } | null> {
  const cookie = fc.oneof({ weight: 3, arbitrary: sessionCookies(ctx) }, { weight: 1, arbitrary: manyCookies(ctx) });
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(null) },
    // A third of them with no key in connection_init: the cookie is then the connection's credential.
    { weight: 1, arbitrary: fc.record({ cookie, withoutKey: fc.boolean() }) },
    { weight: 1, arbitrary: cookie.map((c) => ({ cookie: c, withoutKey: false })) },
  );
}

/**
 * Every case with extra headers now and then: added to an HTTP request (over its own, which they may replace), or to
 * a graphql-ws upgrade (a cookie, with or without an API key in connection_init).
 */
export function withHeaderNoise(arbitrary: fc.Arbitrary<FuzzCase>, ctx: FuzzContext): fc.Arbitrary<FuzzCase> {
  const noise = headerNoiseArb(ctx);
  const wsCookie = wsCookieArb(ctx);
  return arbitrary.chain((c): fc.Arbitrary<FuzzCase> => {
    if (c.channel === 'http') return noise.map((extra) => (Object.keys(extra).length ? { ...c, headers: { ...c.headers, ...extra } } : c));
    return wsCookie.map((w) => (w ? { ...c, headers: { cookie: w.cookie }, sameOrigin: true, ...(w.withoutKey ? { init: {} } : {}) } : c));
  });
}
