import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { connect, type Database } from './platform/db/connect.ts';
import { migrateToLatest, pendingMigrations } from './platform/db/migrate.ts';
import { buildSchema, loadOpenApiDocument } from './app/schema.ts';
import { familyOf, mountRestCompat, restError } from './app/rest/index.ts';
import { mountAdminEndpoint } from './app/admin/admin-endpoint.ts';
import { acquireDataDirLock, type DataDirLock } from './app/admin/data-dir-lock.ts';
import { startBanner } from './app/banner.ts';
import { releaseFreedMemory } from './platform/lib/malloc-trim.ts';
import { type Config, ConfigError, loadConfig } from './platform/config.ts';
import { createContextFactory } from './app/context.ts';
import { createDispatcher } from './platform/events/dispatcher.ts';
import { createDocumentReader, type DocumentReader } from './extraction/reader.ts';
import { createOperationExecutor } from './platform/graphql/executor.ts';
import { createOperationGuard } from './platform/graphql/limits.ts';
import type { BlobStore } from './platform/storage/index.ts';
import { mountGraphQL } from './platform/http/graphql.ts';
import { createHttpServer } from './platform/http/server.ts';
import { AppError } from './platform/errors.ts';
import { channelOf, isLoopbackHost, mountMetricsEndpoint } from './platform/metrics/endpoint.ts';
import { createMetrics } from './platform/metrics/metrics.ts';
import { sessionPrincipal } from './modules/embed/provisioning.service.ts';
import { ensurePortFree } from './platform/http/port-check.ts';
import { createIdempotencyStore } from './platform/idempotency/idempotency.ts';
import { EXPLORER_PAGE, mountDeveloperPages, sendDeveloperPage } from './web/developer/developer.routes.ts';
import { mountSignInRoutes } from './web/sign-in.routes.ts';
import { mountSsoRoutes } from './web/sso.routes.ts';
import { mountAppPages } from './web/pages/app-pages.routes.ts';
import { mountDocumentRoutes } from './web/documents.routes.ts';
import { compose } from './app/compose.ts';
import type { Services } from './app/services.ts';
import type { WebhookSettings } from './modules/webhooks/webhooks.service.ts';

/** Connections the kernel may hold before they are accepted (capped by net.core.somaxconn, often 4096). */
const LISTEN_BACKLOG = 4096;

export { buildSchema, loadOpenApiDocument, loadTypeDefs } from './app/schema.ts';

// The only composition root: config → database → services → schema → HTTP (GraphQL, graphql-ws, REST).

export interface RunningApp {
  url: string;
  port: number;
  services: Services;
  blobs: BlobStore;
  database: Database;
  /** Graceful stop: no new requests, in-flight ones finish, sockets close, database and lock released. */
  close(): Promise<void>;
}

export interface StartOptions {
  config: Config;
  /** An already-open database (tests); otherwise DATABASE_URL or the embedded one under DATA_DIR. */
  database?: Database;
  /** Create a demo partner when the embedded database has none, and print its key (npm start on a terminal). */
  seedDemo?: boolean;
  print?: (text: string) => void;
  /**
   * Test-only webhook settings over the configured ones (e.g. `ca` to trust a self-signed receiver). `ca` and
   * `resolve` apply to the adapter's source_url fetches too.
   */
  webhooks?: Partial<WebhookSettings>;
  /** The clock of rate windows, monthly allowances and date defaults (tests move it). */
  now?: () => Date;
}

export async function startApp(options: StartOptions): Promise<RunningApp> {
  const { config } = options;
  await ensurePortFree(config.port, config.host);
  let lock: DataDirLock | undefined;
  let database = options.database;
  if (!database) {
    if (config.databaseUrl)
      database = await connect({ databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize, preparedStatements: config.databasePreparedStatements });
    else {
      lock = acquireDataDirLock(config.dataDir, 'server');
      database = await connect({ dataDir: config.dataDir, sharedBuffers: config.pgliteSharedBuffers }).catch((err) => {
        lock?.release();
        throw err;
      });
    }
  }
  const db = database.db;
  const onFailure: Array<() => Promise<void>> = [];
  try {
    await migrateToLatest(db);
    let reader: DocumentReader | undefined;
    // This app's metrics (GET /metrics): its own registry, fed by the HTTP hook, GraphQL, REST, reader and webhooks.
    const metrics = createMetrics();
    const { app, handlers } = createHttpServer(config, {
      metrics,
      ready: async () => {
        await sql`select 1`.execute(db);
        const pending = await pendingMigrations(db);
        if (pending.length > 0) throw new Error(`pending migrations: ${pending.join(', ')}`);
        // Degraded, still ready: tesseract.js reads when PP-OCR cannot load (the reason is shown).
        const ocr = await reader?.pool.ocrStatus(10_000);
        return { components: { ocr: ocr ?? { engine: 'loading', fallbackReason: null } } };
      },
      respondError: (request, err) => {
        metrics.error(channelOf(request.url), err instanceof AppError ? err.code : 'INTERNAL_SERVER_ERROR', request);
        return restError(familyOf(request.url) ?? 'v1', err, request.log);
      },
    });
    onFailure.push(() => app.close());
    // Reading workers are spawned on first use (one per core at most) and stopped on close.
    reader = createDocumentReader({
      limits: config.readLimits,
      ocr: config.ocr,
      idleReleaseMs: config.readerIdleReleaseMs,
      nice: config.readerNice,
      onOcrStatus: (s) => (s.fallbackReason ? app.log.warn({ ocr: s }, s.fallbackReason) : app.log.info({ ocr: s }, `OCR engine: ${s.engine}`)),
      onRead: metrics.documentRead,
    });
    const opened = reader;
    const { pool } = database;
    pool.on?.('error', (err) => app.log.warn({ err }, 'the database closed an idle connection; the pool will open another'));
    metrics.watch({
      readQueue: () => ({ waiting: opened.pool.queued, inFlight: opened.pool.pending }),
      dbPool: () => ({ kind: database.kind, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 }),
    });
    onFailure.push(() => opened.close());
    // Links handed out (setup, embed sign-in) use PUBLIC_URL, or the real port once listening when it is the default.
    let publicUrl = config.publicUrl;
    const composed = await compose({
      config,
      database,
      log: app.log,
      embedder: 'open',
      reader,
      webhooks: options.webhooks,
      now: options.now,
      publicUrl: () => publicUrl,
    });
    onFailure.pop(); // the reader is closed with the rest now
    onFailure.push(() => composed.close());
    const { services, blobs, lease } = composed;
    const index = await services.search.prepare();
    // Rows another embedder wrote (EMBEDDER changed, or a new version of the local one) are not searched. The embedded
    // database has one server, which re-embeds them in the background; on a shared PostgreSQL two versions of the
    // server would undo each other's reindex during a rolling deploy, so there it is `admin reindex`, run once.
    const reindexStop = new AbortController();
    let reindexing: Promise<void> | undefined;
    if ((index.dropped || index.stale) && database.kind !== 'pglite') {
      app.log.warn(index, 'search index rows from another embedder: run `npm run admin -- reindex`');
    } else if (index.dropped || index.stale) {
      app.log.info(index, 'search index rows from another embedder: re-embedding them in the background');
      reindexing = services.search.reindex(undefined, reindexStop.signal).then(
        (done) => app.log.info(done, done.complete ? 'search index re-embedded' : 'search re-embedding stopped; it resumes at the next start'),
        (err: unknown) => app.log.error({ err }, 'search re-embedding failed: run `npm run admin -- reindex`'),
      );
      onFailure.push(async () => {
        reindexStop.abort();
        await reindexing;
      });
    }
    const schema = buildSchema();
    const guard = createOperationGuard(schema, config.graphqlLimits);
    const openapi = loadOpenApiDocument();
    const createContext = createContextFactory(services);
    app.get('/openapi.json', async () => openapi);
    mountMetricsEndpoint(app, metrics, { token: config.metricsToken, host: config.host });
    if (!config.metricsToken && !isLoopbackHost(config.host)) app.log.warn(`GET /metrics is refused on HOST ${config.host}: set METRICS_TOKEN to scrape it`);
    const rateLimit = services.rateLimits.consume;
    const sessionAuth = async (token: string) => {
      const view = await services.provisioning.session(token);
      return view ? sessionPrincipal(view) : null;
    };
    const idempotency = createIdempotencyStore(db);
    const graphql = await mountGraphQL(app, {
      schema,
      guard,
      authenticate: services.authenticate,
      createContext,
      rateLimit,
      sessionAuth,
      credentials: services.credentials,
      recheckMs: config.authRecheckMs,
      keepAliveMs: config.wsKeepAliveMs,
      explorer: (reply) => sendDeveloperPage(reply, EXPLORER_PAGE),
      idempotency,
      metrics,
    });
    mountDeveloperPages(app);
    // REST routes and pages run their stored operations through one executor (same schema, limits and access checks).
    const executor = createOperationExecutor(schema, guard);
    mountRestCompat(app, { executor, authenticate: services.authenticate, createContext, rateLimit, idempotency, metrics });
    mountSignInRoutes(app, { provisioning: services.provisioning, sso: services.sso });
    mountSsoRoutes(app, { sso: services.sso, publicUrl: () => publicUrl, log: app.log });
    mountAppPages(app, { executor, createContext, services, now: options.now });
    mountDocumentRoutes(app, services);
    let adminToken: string | undefined;
    if (lock) {
      mountAdminEndpoint(app, () => adminToken, { partners: services.partners, search: services.search, seed: { services, db } });
    }

    // Outbox → live subscriptions (every instance) and webhook deliveries (once across instances).
    const dispatcher = createDispatcher(db, services.events, {
      pollMs: config.eventsPollMs,
      log: app.log,
      handOff: services.webhooks.handOff,
      handedOff: () => services.webhooks.wake(),
    });
    await dispatcher.start();
    metrics.watch({ outboxLagSeconds: dispatcher.lagSeconds });
    onFailure.push(() => dispatcher.stop());

    // Invoices a dead process left `processing`: with the embedded database (this process holds its lock) every one
    // is orphaned; on a shared database only those whose lease ran out, looked for again every half lease. The first
    // look happens before listening; re-extraction runs in the background while the server answers.
    const recovery = services.recovery.start({ anyOwner: lock !== undefined, everyMs: database.kind === 'postgres' ? lease.ms / 2 : undefined });
    onFailure.push(() => recovery.stop());
    await recovery.ready;

    // A deploy or a network blip makes every live client reconnect at once: Node's default accept queue (511)
    // overflows and the kernel drops the rest, which retry after 1, 2, 4… s. The kernel caps this at somaxconn.
    await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
    // Webhook deliveries are sent from the database queue (a delivery is a row: nothing is lost on a crash).
    const webhookDelivery = services.webhooks.startDelivery(metrics.webhookAttempt);
    onFailure.push(() => webhookDelivery.stop());
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    if (lock) adminToken = lock.publishAdmin(port);
    const url = config.publicUrl.startsWith(`http://localhost:${config.port}`) ? `http://localhost:${port}` : config.publicUrl;
    publicUrl = url;

    const demo =
      options.seedDemo && database.kind === 'pglite' && (await services.partners.countPartners()) === 0
        ? await services.partners.createPartner({ name: 'Demo partner', tier: 'embed' })
        : undefined;
    options.print?.(startBanner({ url, database: database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)', demo }));

    const owned = database;
    let closing: Promise<void> | undefined;
    return {
      url,
      port,
      services,
      blobs,
      database: owned,
      close: () =>
        (closing ??= (async () => {
          await graphql.stop();
          await app.close();
          // Handlers whose client left are not waited for by the close above; what they use closes below.
          await handlers.idle();
          // A record being resumed is finished first (stopping the reader under it would record it failed).
          await recovery.stop();
          services.keeper.stop();
          await dispatcher.stop();
          await webhookDelivery.stop();
          reindexStop.abort();
          await reindexing;
          await composed.close();
          if (!options.database) await owned.close();
          lock?.release();
        })()),
    };
  } catch (err) {
    for (const undo of onFailure) await undo().catch(() => {});
    if (!options.database) await database.close().catch(() => {});
    lock?.release();
    throw err;
  }
}

/** How long after the server is up the memory its start-up freed is given back. */
const STARTUP_TRIM_DELAY_MS = 2000;

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  // The banner and shutdown notes go to stderr: stdout carries only the JSON log lines. A demo key is printed only to a
  // terminal: output that is not one is collected (a process manager, a container's log), and keys stay out of logs.
  const app = await startApp({ config, seedDemo: process.stderr.isTTY === true, print: (text) => process.stderr.write(text) });
  // Start-up frees much of the native memory it allocated, and glibc keeps freed pages for reuse: given back once
  // start-up has settled, the idle server holds ~45 MB less
  // (`npm run bench -- memory`: 289–300 → 243–246 MB; docs/decisions.md, "Memory").
  setTimeout(() => void releaseFreedMemory(), STARTUP_TRIM_DELAY_MS).unref();
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`${signal}: shutting down gracefully\n`);
    const timer = setTimeout(() => {
      process.stderr.write(`shutdown took longer than ${config.shutdownTimeoutMs} ms; exiting\n`);
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (err) => {
        process.stderr.write(`shutdown failed: ${(err as Error).stack}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    process.stderr.write(`failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
