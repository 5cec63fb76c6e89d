import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { type AssetSpec, lazyAssets } from '../../platform/lib/lazy-assets.ts';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OperationExecutor } from '../../platform/graphql/executor.ts';
import type { CreateContext } from '../../app/context.ts';
import { readCookie, SESSION_COOKIE } from '../../platform/http/cookies.ts';
import { sessionPrincipal, STORE_SCOPED_ROLES } from '../../modules/embed/provisioning.service.ts';
import type { Services } from '../../app/services.ts';
import { esc } from '../html.ts';
import { dashboardPage, dashboardSpendFragment } from './dashboard.page.ts';
import { inventoryPage } from './inventory.page.ts';
import { invoicePage } from './invoice.page.ts';
import { invoicesPage } from './invoices.page.ts';
import { appPage, barePage, type Chrome } from './layout.ts';
import { createPageGraphQL, PageError } from './page-graphql.ts';
import type { PageHandler } from './page.ts';
import { plPage } from './pl.page.ts';
import { laborCsv, reportsPage, vendorsCsv } from './reports.page.ts';
import { schedulingPage } from './scheduling.page.ts';
import { searchPage } from './search.page.ts';

/** Roles that see one store's invoices, inventory and schedules (the contract's store-level roles). */
const STORE_ROLES = new Set(STORE_SCOPED_ROLES);

const PAGES: ReadonlyArray<readonly [string, PageHandler, string]> = [
  ['/app/dashboard', dashboardPage, 'dashboard'],
  ['/app/dashboard/spend', dashboardSpendFragment, 'dashboard'],
  ['/app/invoices', invoicesPage, 'invoices'],
  ['/app/invoices/:id', invoicePage, 'invoices'],
  ['/app/inventory', inventoryPage, 'inventory'],
  ['/app/scheduling', schedulingPage, 'scheduling'],
  ['/app/search', searchPage, 'search'],
  ['/app/pl', plPage, 'pl'],
  ['/app/reports', reportsPage, 'reports'],
  ['/app/reports/labor.csv', laborCsv, 'reports'],
  ['/app/reports/vendors.csv', vendorsCsv, 'reports'],
];

const ERROR_TITLES = { 400: 'Check the address', 403: 'Not available', 404: 'Not found' } as const;

type PageRequest = FastifyRequest<{ Params: Record<string, string>; Querystring: Record<string, string> }>;
type StoreName = { name: string | null; externalStoreId: string };

const STORE = `query PageStore($id: UUID!) { store(id: $id) { name externalStoreId } }`;

/** The browser assets, read on first request: our stylesheet and scripts, graphql-ws's and Chart.js's browser builds (no CDN). */
function loadAssets() {
  const own = (file: string) => () => readFileSync(new URL(`assets/${file}`, import.meta.url), 'utf8');
  const require = createRequire(import.meta.url);
  const graphqlWs = path.join(path.dirname(require.resolve('graphql-ws')), '..', 'umd', 'graphql-ws.min.js');
  const chartJs = path.join(path.dirname(require.resolve('chart.js')), 'chart.umd.min.js');
  const pdfjs = path.join(path.dirname(require.resolve('pdfjs-dist')), '..');
  const js = (read: () => string): AssetSpec => ({ type: 'text/javascript; charset=utf-8', read });
  const file = (p: string) => () => readFileSync(p, 'utf8');
  const fonts = readdirSync(path.join(pdfjs, 'standard_fonts'))
    .filter((f) => /\.(pfb|ttf)$/.test(f))
    .map((f) => [`standard_fonts/${f}`, { type: 'application/octet-stream', read: () => readFileSync(path.join(pdfjs, 'standard_fonts', f)) }] as const);
  return lazyAssets([
    ...fonts,
    ['app.css', { type: 'text/css; charset=utf-8', read: own('app.css') }],
    ['live-invoices.js', js(own('live-invoices.js'))],
    ['charts.js', js(own('charts.js'))],
    ['upload.js', js(own('upload.js'))],
    ['graphql-ws.min.js', js(file(graphqlWs))],
    ['chart.umd.min.js', js(file(chartJs))],
    ['invoice.mjs', js(own('invoice.mjs'))],
    // pdf.js (legacy build: older phone browsers too), its worker and fonts draw the original PDFs on invoice pages.
    ['pdf.min.mjs', js(file(path.join(pdfjs, 'legacy', 'build', 'pdf.min.mjs')))],
    ['pdf.worker.min.mjs', js(file(path.join(pdfjs, 'legacy', 'build', 'pdf.worker.min.mjs')))],
  ]);
}

/**
 * Only this origin: scripts and stylesheets from /app/assets, the one inline style carrying the brand colour by
 * nonce, images from here or data: (plus the origin of an https logo), and fetch/WebSocket back to this host.
 * No frame-ancestors: the pages are made to be embedded in the partner's product.
 */
function contentSecurityPolicy(nonce: string, host: string | undefined, logoUrl: string | null): string {
  const img = ["'self'", 'data:'];
  if (logoUrl?.startsWith('https://')) img.push(new URL(logoUrl).origin);
  const connect = ["'self'"];
  if (host && /^[A-Za-z0-9.-]+(:\d+)?$|^\[[0-9a-fA-F:.]+\](:\d+)?$/.test(host)) connect.push(`ws://${host}`, `wss://${host}`);
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    `img-src ${img.join(' ')}`,
    `connect-src ${connect.join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

/**
 * The tenant pages behind embed sign-in: `/app/{dashboard,invoices,inventory,scheduling,search,pl,reports}` and
 * `/app/invoices/{id}`. Each renders on the server through GraphQL as the session's principal (the user's tenant
 * only, read-only scopes); store-scoped roles pass their store as the operations' storeId.
 */
export function mountAppPages(
  root: FastifyInstance,
  deps: { executor: OperationExecutor; createContext: CreateContext; services: Pick<Services, 'provisioning' | 'branding'>; now?: () => Date },
): void {
  const gql = createPageGraphQL(deps.executor, deps.createContext);
  const assets = loadAssets();
  const now = deps.now ?? (() => new Date());

  /** The page for a live session, else 401; PageErrors as pages in the frame; anything else a plain 500. */
  async function respond(request: PageRequest, reply: FastifyReply, handler: PageHandler, active: string, nonce: string) {
    const view = await deps.services.provisioning.session(readCookie(request.headers.cookie, SESSION_COOKIE));
    if (!view) {
      reply.header('content-security-policy', contentSecurityPolicy(nonce, undefined, null));
      return reply.code(401).send(barePage('Your session has ended', '<p>Your session has ended — open the application you came from again.</p>', nonce));
    }
    const brand = await deps.services.branding.get(view.partnerId);
    reply.header('content-security-policy', contentSecurityPolicy(nonce, request.headers.host, brand.logoUrl));
    const principal = sessionPrincipal(view);
    const run = <T>(query: string, variables?: Record<string, unknown>) => gql<T>(principal, request.log, query, variables);
    const storeScoped = STORE_ROLES.has(view.role);
    const store = storeScoped && view.storeId ? (await run<{ store: StoreName | null }>(STORE, { id: view.storeId })).store : null;
    const chrome: Chrome = { view, brand, storeName: store ? (store.name ?? store.externalStoreId) : null, nonce };
    try {
      // A store-level role whose store is gone sees nothing rather than every store.
      if (storeScoped && !store) throw new PageError(403, 'Your account is not linked to a store. Ask your administrator.');
      const content = await handler({
        view,
        principal,
        storeId: storeScoped ? view.storeId : null,
        query: request.query ?? {},
        params: request.params ?? {},
        gql: run,
        now: now(),
      });
      if (content.download) {
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${content.download.filename.replace(/[^\w.-]/g, '_')}"`)
          .send(content.body);
      }
      return reply.send(content.fragment ? content.body : appPage(chrome, { ...content, active }));
    } catch (err) {
      if (!(err instanceof PageError)) throw err;
      return reply.code(err.status).send(appPage(chrome, { title: ERROR_TITLES[err.status], active, body: `<p>${esc(err.message)}</p>` }));
    }
  }

  function render(handler: PageHandler, active: string) {
    return async (request: PageRequest, reply: FastifyReply) => {
      const nonce = randomBytes(16).toString('base64');
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'same-origin')
        .header('x-content-type-options', 'nosniff');
      try {
        return await respond(request, reply, handler, active, nonce);
      } catch (err) {
        request.log.error({ err }, 'tenant page failed');
        reply.header('content-security-policy', contentSecurityPolicy(nonce, undefined, null));
        return reply.code(500).send(barePage('Something went wrong', '<p>This page could not be shown. Try again in a moment.</p>', nonce));
      }
    };
  }

  root.register(async (app) => {
    const serveAsset = async (name: string, reply: FastifyReply) => {
      const asset = assets.get(name);
      if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('not found');
      return reply.type(asset.type).header('cache-control', 'public, max-age=300').header('x-content-type-options', 'nosniff').send(asset.body);
    };
    app.get<{ Params: { name: string } }>('/app/assets/:name', (request, reply) => serveAsset(request.params.name, reply));
    app.get<{ Params: { name: string } }>('/app/assets/standard_fonts/:name', (request, reply) => serveAsset(`standard_fonts/${request.params.name}`, reply));
    app.get('/app', async (_request, reply) => reply.redirect('/app/dashboard', 303));
    for (const [url, handler, active] of PAGES) app.get(url, render(handler, active));
    app.get(
      '/app/*',
      render(async () => {
        throw new PageError(404, 'There is no such page.');
      }, ''),
    );
  });
}
