import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';

// Debian's Chromium driven by playwright-core, offline: what the browser tests share.

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Screenshots land here (test-artifacts/, not committed). */
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });

/** A browser context that aborts every request not to `base`, listing them, and collects page errors. */
export async function offlineContext(
  browser: Browser,
  base: string,
  options: { width?: number; acceptDownloads?: boolean } = {},
): Promise<{ context: BrowserContext; outside: string[]; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 900 }, acceptDownloads: options.acceptDownloads ?? false });
  const outside: string[] = [];
  const problems: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(base) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    outside.push(url);
    return route.abort();
  });
  context.on('weberror', (e) => problems.push(e.error().message));
  context.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
  return { context, outside, problems };
}
