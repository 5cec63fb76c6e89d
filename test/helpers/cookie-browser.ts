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

/**
 * Opens a setup link as a person does: its page (which binds nothing), then its Continue button (POST …/open, which
 * binds the link to this browser and redirects back to the page). Returns the last response: the form, or a refusal.
 */
export async function openSetup(browser: ReturnType<typeof cookieBrowser>, setupUrl: string, init: RequestInit = {}): Promise<Response> {
  const page = await browser(setupUrl, init);
  if (page.status !== 200) return page;
  const html = await page.text();
  if (!html.includes('/open"><button type="submit">Continue</button>')) return new Response(html, { status: page.status, headers: page.headers });
  const opened = await browser(`${setupUrl}/open`, { ...formPost({}), headers: { ...formPost({}).headers, ...init.headers } });
  if (opened.status !== 303) return opened;
  return browser(new URL(opened.headers.get('location')!, setupUrl).toString(), init);
}
