/** The browser session cookie: set by embed sign-in, sent to /app pages, /graphql and graphql-ws. */
export const SESSION_COOKIE = 'pa_session';

/**
 * One cookie's value from a Cookie header. A value that is not valid percent-encoding (`%zz`, a cut-off `%E0%A4`)
 * is taken as it was sent, as the `cookie` package does: it names no session, so it is refused like any unknown one
 * (a 401, a 4403 close), and a request that also sends an API key is served by the key.
 */
export function readCookie(header: string | string[] | undefined, name: string): string | undefined {
  const raw = Array.isArray(header) ? header.join('; ') : header;
  if (!raw) return undefined;
  for (const part of raw.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return decodeValue(part.slice(i + 1).trim());
  }
  return undefined;
}

function decodeValue(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * The session cookie: HttpOnly, Secure, SameSite=None (the pages are embedded in the partner's product, a
 * cross-site iframe; CSRF is covered by Apollo's preflight rule for GraphQL and by read-only sessions).
 */
export function sessionCookie(token: string, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${encodeURIComponent(token)}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; Secure; SameSite=None; Partitioned`;
}
