// Browsers for the server-rendered pages in API and end-to-end tests (no app imports: the end-to-end tests use it too).

/**
 * One browser on the test server: any origin in a URL is replaced by `base` (as onTestServer), redirects are not
 * followed, and the cookies responses set are sent back on later requests (Max-Age=0 removes one; paths are ignored).
 */
export function cookieBrowser(base: string) {
  const cookies = new Map<string, string>();
  const open = async (url: string, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    if (cookies.size) headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url.replace(/^https?:\/\/[^/]+/, base), { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      if (attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))) cookies.delete(pair!.slice(0, eq));
      else cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return res;
  };
  return Object.assign(open, { cookies });
}

/** A form post's request options. */
export function formPost(fields: Record<string, string>): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() };
}
