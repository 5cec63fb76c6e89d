import type { Database } from '../platform/db/connect.ts';
import type { Config } from '../platform/config.ts';
import type { Embedder } from '../platform/embeddings/embedder.ts';
import { openEmbedder } from '../platform/embeddings/open.ts';
import { createRateLimiter } from '../platform/rate-limit/limiter.ts';
import { type BlobStore, createBlobStore } from '../platform/storage/index.ts';
import type { Logger } from '../platform/log.ts';
import { createExtractor } from '../extraction/create-extractor.ts';
import type { DocumentExtractor } from '../extraction/extractor.ts';
import { createDocumentReader, type DocumentReader } from '../extraction/reader.ts';
import { newLease } from '../modules/documents/extraction-lease.ts';
import type { WebhookSettings } from '../modules/webhooks/webhooks.service.ts';
import { createServices, type Services } from './services.ts';

// The one composition root: config → infrastructure (reader, extractor, blob store, embedder, rate limiter, leases,
// outbound rules) → every domain service over one database. The server (main.ts), the admin CLI and its seed, and
// every tool (eval/, bench/) build their services here; they differ only in the pieces they pass in.

export interface ComposeOptions {
  config: Config;
  database: Database;
  log: Logger;
  /**
   * The search embedder: an open one, 'open' (the configured one, its word-vector cache built when missing), or
   * 'none' for commands that never embed (create-partner, the demo seed): search calls then fail.
   */
  embedder: Embedder | 'open' | 'none';
  /** The document reader; default: one with the configured limits and OCR (workers start on first use). */
  reader?: DocumentReader;
  blobs?: BlobStore;
  /** Test-only webhook settings over the configured ones (`ca` and `resolve` apply to adapter fetches too). */
  webhooks?: Partial<WebhookSettings>;
  /** The clock of rate windows, monthly allowances and date defaults (tests move it). */
  now?: () => Date;
  /** Base URL of links handed out; default: the configured PUBLIC_URL. */
  publicUrl?: () => string;
}

export interface Composed {
  services: Services;
  reader: DocumentReader;
  extractor: DocumentExtractor;
  blobs: BlobStore;
  embedder: Embedder;
  lease: ReturnType<typeof newLease>;
  /** Stops what was built here: the extraction provider, the adapter's clients and the reading workers. */
  close(): Promise<void>;
}

/** Search is not part of this command: anything that embeds fails loudly instead of opening the embedder. */
const NO_EMBEDDER: Embedder = {
  id: 'none',
  dimensions: 0,
  embed: async () => {
    throw new Error('this command runs without a search embedder');
  },
};

export async function compose(options: ComposeOptions): Promise<Composed> {
  const { config, database, log } = options;
  const embedder = options.embedder === 'open' ? await openEmbedder(config, log) : options.embedder === 'none' ? NO_EMBEDDER : options.embedder;
  const reader = options.reader ?? createDocumentReader({ limits: config.readLimits, ocr: config.ocr });
  // The extraction provider (EXTRACTOR): the local engine over the reader, or Document AI (client built on first use).
  const extractor = createExtractor(config.extractor, { reader });
  const blobs = options.blobs ?? createBlobStore(config);
  const webhooks: WebhookSettings = {
    retryScheduleMs: config.webhookRetryScheduleMs,
    allowLoopback: config.outboundAllowLoopback,
    ...options.webhooks,
  };
  const rateLimiter = createRateLimiter({ store: config.rateLimitStore, pool: database.pool, now: options.now });
  // The adapter fetches partner documents under the same outbound rules as webhooks (SSRF guard, loopback flag).
  const adapterSources = { allowLoopback: webhooks.allowLoopback, ca: webhooks.ca, resolve: webhooks.resolve, ...config.objectSources };
  const lease = newLease(config.extractionLeaseMs);
  const services = createServices(database.db, {
    reader,
    extractor,
    blobs,
    embedder,
    log,
    webhooks,
    rateLimiter,
    now: options.now,
    adapterSources,
    publicUrl: options.publicUrl ?? (() => config.publicUrl),
    lease,
    authCacheMs: config.authCacheMs,
  });
  return {
    services,
    reader,
    extractor,
    blobs,
    embedder,
    lease,
    close: async () => {
      await extractor.close();
      await services.adapter.close();
      await reader.close();
    },
  };
}
