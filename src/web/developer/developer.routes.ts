// The developer's pages, served offline: the REST reference at /docs (Redoc, from schema/openapi.yaml via
// /openapi.json) and the GraphQL explorer a browser gets at GET /graphql (GraphiQL with a field for the API key,
// kept in the browser's localStorage). Every script and stylesheet comes from npm packages served here: no CDN,
// no fonts fetched, no telemetry (Apollo's CDN landing page is disabled in platform/http/graphql.ts).

import { readFileSync } from 'node:fs';
import { lazyAssets } from '../../platform/lib/lazy-assets.ts';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';

const require = createRequire(import.meta.url);
const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

/** The assets under /docs/assets/, read on first request: the packages' browser builds and our two small scripts. */
function loadAssets() {
  // Files inside packages whose "exports" do not list them: resolved from the package's own folder.
  const pkg = (file: string) => () => {
    const [name, ...rest] = file.split('/');
    return readFileSync(path.join(path.dirname(require.resolve(`${name}/package.json`)), ...rest));
  };
  const own = (file: string) => () => readFileSync(new URL(file, import.meta.url));
  return lazyAssets([
    // Redoc's sidebar footer shows a logo from its CDN: an empty image instead, so the page makes no request outside.
    [
      'redoc.standalone.js',
      { type: JS, read: () => Buffer.from(pkg('redoc/bundles/redoc.standalone.js')().toString('utf8').replace(REDOC_CDN_LOGO, EMPTY_IMAGE)) },
    ],
    ['react.production.min.js', { type: JS, read: pkg('react/umd/react.production.min.js') }],
    ['react-dom.production.min.js', { type: JS, read: pkg('react-dom/umd/react-dom.production.min.js') }],
    ['graphiql.min.js', { type: JS, read: pkg('graphiql/graphiql.min.js') }],
    ['graphiql.min.css', { type: CSS, read: pkg('graphiql/graphiql.min.css') }],
    ['docs.js', { type: JS, read: own('docs.js') }],
    ['explorer.js', { type: JS, read: own('explorer.js') }],
    ['explorer.css', { type: CSS, read: own('explorer.css') }],
  ]);
}

/**
 * Scripts only from here; inline styles are allowed because both renderers inject theirs at run time (Redoc through
 * styled-components, GraphiQL's editor); Redoc's search runs in a blob: worker. Requests go back to this host only.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
].join('; ');

const page = (title: string, head: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>${head}</head>
<body>${body}</body></html>`;

const DOCS_PAGE = page(
  'Partner API — REST reference',
  '<link rel="stylesheet" href="/docs/assets/explorer.css">',
  '<div id="redoc"></div><script src="/docs/assets/redoc.standalone.js"></script><script src="/docs/assets/docs.js"></script>',
);

/** What a browser gets at GET /graphql: GraphiQL, the key field above it. */
export const EXPLORER_PAGE = page(
  'Partner API — GraphQL explorer',
  '<link rel="stylesheet" href="/docs/assets/graphiql.min.css"><link rel="stylesheet" href="/docs/assets/explorer.css">',
  `<div class="explorer">
<header class="keybar"><strong>Partner API · GraphQL</strong>
<label for="api-key">API key</label><input id="api-key" type="password" autocomplete="off" spellcheck="false" placeholder="paste your X-API-Key (kept in this browser only)">
<a href="/docs">REST reference</a></header>
<div id="graphiql"></div></div>
<script src="/docs/assets/react.production.min.js"></script><script src="/docs/assets/react-dom.production.min.js"></script>
<script src="/docs/assets/graphiql.min.js"></script><script src="/docs/assets/explorer.js"></script>`,
);

/** Headers of the two HTML pages. */
export function sendDeveloperPage(reply: FastifyReply, html: string): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('content-security-policy', CSP)
    .header('cache-control', 'no-cache')
    .header('referrer-policy', 'same-origin')
    .header('x-content-type-options', 'nosniff')
    .send(html);
}

/** GET /docs (the REST reference) and its assets, which the explorer at GET /graphql shares. */
export function mountDeveloperPages(app: FastifyInstance): void {
  const assets = loadAssets();
  app.get('/docs', async (_request, reply) => sendDeveloperPage(reply, DOCS_PAGE));
  app.get<{ Params: { name: string } }>('/docs/assets/:name', async (request, reply) => {
    const asset = assets.get(request.params.name);
    if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('not found');
    return reply.type(asset.type).header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff').send(asset.body);
  });
}
