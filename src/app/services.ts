import { EventEmitter } from 'node:events';
import type { Kysely } from 'kysely';
import type { DB } from '../platform/db/types.ts';
import { createAdapterService } from '../modules/adapter/adapter.service.ts';
import type { SourceSettings } from '../modules/adapter/sources.ts';
import { cacheAuthentication, createAuthenticator } from '../platform/auth/authenticate.ts';
import { createCredentialCheck } from '../platform/auth/live-credentials.ts';
import { createBrandingService } from '../modules/branding/branding.service.ts';
import { createCategorizer } from '../extraction/categorizer.ts';
import type { Embedder } from '../platform/embeddings/embedder.ts';
import type { DocumentExtractor } from '../extraction/extractor.ts';
import { createLocalExtractor } from '../extraction/local.extractor.ts';
import { withCleanText } from '../extraction/control-chars.ts';
import type { DocumentReader } from '../extraction/reader.ts';
import { createLeaseKeeper, type ExtractionLease, newLease } from '../modules/documents/extraction-lease.ts';
import { createExtractionRecovery } from '../modules/documents/extraction-recovery.ts';
import { renewLeases } from '../modules/documents/extraction-leases.queries.ts';
import { createInvoiceExtraction } from '../modules/documents/invoice-extraction.ts';
import { taxCategoryForReceipt } from '../extraction/tax-categories.ts';
import { createInventoryService } from '../modules/inventory/inventory.service.ts';
import { createInvoicesService } from '../modules/invoices/invoices.service.ts';
import { createPartnersService } from '../modules/partners/partners.service.ts';
import { EventPubSub } from '../platform/events/pubsub.ts';
import { createProvisioningService } from '../modules/embed/provisioning.service.ts';
import { createReceiptsService } from '../modules/receipts/receipts.service.ts';
import { createRateLimiter, type RateLimiter } from '../platform/rate-limit/limiter.ts';
import { createSchedulingService } from '../modules/scheduling/scheduling.service.ts';
import { createSearchService } from '../modules/search/search.service.ts';
import { createSsoService } from '../modules/embed/sso/sso.service.ts';
import { createSpendService } from '../modules/spend/spend.service.ts';
import { createProfitAndLossService } from '../modules/pnl/pnl.service.ts';
import { createInvoiceCorrections } from '../modules/invoices/invoice-corrections.ts';
import { createDocumentLinks } from '../modules/documents/document-links.ts';
import type { BlobStore } from '../platform/storage/index.ts';
import { createTenantsService } from '../modules/tenants/tenants.service.ts';
import { createUploadsService } from '../modules/documents/uploads.service.ts';
import { createUsageService } from '../modules/usage/usage.service.ts';
import { createVendorsService } from '../modules/vendors/vendors.service.ts';
import { createWebhooksService, DEFAULT_RETRY_SCHEDULE_MS, type WebhookSettings } from '../modules/webhooks/webhooks.service.ts';

/** What the services run on besides the database (built and closed by the composition root). */
export interface Infrastructure {
  reader: DocumentReader;
  /** The extraction provider uploads use (EXTRACTOR); default: the local engine over `reader`. */
  extractor?: DocumentExtractor;
  blobs: BlobStore;
  embedder: Embedder;
  /** Where services report what they recover from (e.g. a search-index write that failed). */
  log: { warn(obj: object, msg: string): void };
  /** Webhook delivery settings (from config); default: DESIGN §7's schedule, no loopback receivers. */
  webhooks?: WebhookSettings;
  /** The clock of date defaults and "not in the future" checks (tests pin it). */
  now?: () => Date;
  /** Base URL of links the API hands out (setup and embed sign-in); default http://localhost:4000. */
  publicUrl?: () => string;
  /** Rate limits and monthly allowances (default: counted in this process only). */
  rateLimiter?: RateLimiter;
  /**
   * Where the adapter may fetch documents from (config: OUTBOUND_ALLOW_LOOPBACK, S3_*, GCS_API_ENDPOINT); default:
   * public https only, with the webhooks' test-only CA and resolver, S3 in us-east-1.
   */
  adapterSources?: SourceSettings;
  /** This instance's lease on the invoices it extracts (EXTRACTION_LEASE_MS); default: a new owner, 30 s. */
  lease?: ExtractionLease;
  /** How long HTTP requests reuse an API key's principal (AUTH_CACHE_MS); default 0: looked up every time. */
  authCacheMs?: number;
}

/** Every domain service, built once per process over one database. */
export function createServices(db: Kysely<DB>, infra: Infrastructure) {
  const tenants = createTenantsService(db);
  const events = new EventPubSub();
  const written = () => events.written();
  const categorize = createCategorizer(infra.embedder);
  const lease = infra.lease ?? newLease();
  const invoices = createInvoicesService(db, { categorize, tenants, lease, written });
  const receipts = createReceiptsService(db, {
    categorize,
    written,
    taxCategorize: (fields) => taxCategoryForReceipt(fields, fields.lineItems),
    tenants,
  });
  const vendors = createVendorsService(db, tenants);
  const scheduling = createSchedulingService(db, { tenants, now: infra.now });
  const spend = createSpendService(db, { tenants, now: infra.now });
  const rateLimits = infra.rateLimiter ?? createRateLimiter({ store: 'memory', now: infra.now });
  const usage = createUsageService(db, { rateLimits, now: infra.now });
  const publicUrl = infra.publicUrl ?? (() => 'http://localhost:4000');
  const provisioning = createProvisioningService(db, { tenants, publicUrl, now: infra.now });
  const search = createSearchService(db, { embedder: infra.embedder, tenants, vendors, invoices, receipts });
  const credentialChanges = new EventEmitter();
  const lookUpKey = createAuthenticator(db);
  const authenticate = cacheAuthentication(lookUpKey, infra.authCacheMs ?? 0);
  credentialChanges.on('changed', authenticate.forget);
  // Whatever reads the documents, its text reaches the database without control characters (NUL is refused there).
  const extractor = withCleanText(infra.extractor ?? createLocalExtractor(infra.reader));
  const keeper = createLeaseKeeper(lease, (ids) => renewLeases(db, lease.owner, ids, lease.ms), infra.log);
  const extraction = createInvoiceExtraction(db, { extractor, blobs: infra.blobs, invoices, search, usage, keeper, log: infra.log });
  return {
    /** An API key's principal (remembered for AUTH_CACHE_MS; forgotten at once on a revocation here). */
    authenticate,
    /** Whether the keys and sessions of open connections are still live; `changed` fires when this process revokes one. */
    credentials: {
      /** An API key's principal, always from the database (graphql-ws re-checks before every operation). */
      authenticate: lookUpKey,
      stillLive: createCredentialCheck(db, infra.now),
      onChange: (listener: () => void) => credentialChanges.on('changed', listener),
    },
    partners: createPartnersService(db, { revoked: () => credentialChanges.emit('changed') }),
    tenants,
    vendors,
    invoices,
    receipts,
    search,
    rateLimits,
    usage,
    provisioning,
    sso: createSsoService(db, { provisioning, publicUrl, allowLoopback: infra.webhooks?.allowLoopback ?? false, now: infra.now }),
    inventory: createInventoryService(db, { tenants, now: infra.now }),
    scheduling,
    /** Spend per cost category and vendor over a period (the P&L page, GraphQL spendReport). */
    spend,
    /** Sales against cost of goods, labor and prime cost (GraphQL profitAndLoss, the P&L page). */
    profitAndLoss: createProfitAndLossService({ tenants, scheduling, spend, now: infra.now }),
    /** A person's corrections of extracted invoices, and the per-vendor accuracy they give. */
    corrections: createInvoiceCorrections(db, { tenants, search, now: infra.now }),
    /** Short-lived signed links to the original documents (GraphQL Invoice.original, GET /documents/{id}). */
    documentLinks: createDocumentLinks(db, { blobs: infra.blobs, publicUrl, now: infra.now }),
    /** The partner's white label of the tenant pages. */
    branding: createBrandingService(db),
    /** Live domain events of this process (fed by the dispatcher from the outbox). */
    events,
    uploads: createUploadsService({ ...infra, extractor, extraction, tenants, invoices, receipts, search, usage }),
    /** Finishes invoices a dead process left `processing` (main starts it; `keeper.stop()` on shutdown). */
    recovery: createExtractionRecovery(db, { extraction, blobs: infra.blobs, keeper, lease, log: infra.log }),
    keeper,
    /** POST /api/v1/partner/extract: documents from object storage, shaped by the partner's profiles. */
    adapter: createAdapterService(db, {
      extractor,
      categorize,
      taxCategorize: (fields) => taxCategoryForReceipt(fields, fields.lineItems),
      tenants,
      usage,
      sources: infra.adapterSources ?? {
        allowLoopback: infra.webhooks?.allowLoopback ?? false,
        ca: infra.webhooks?.ca,
        resolve: infra.webhooks?.resolve,
        s3: { region: 'us-east-1', forcePathStyle: false },
        gcs: {},
      },
      log: infra.log,
    }),
    /** Webhook endpoints and their delivery queue (`enqueue` is for the dispatcher, `startDelivery` for main). */
    webhooks: createWebhooksService(db, {
      tenants,
      settings: infra.webhooks ?? { retryScheduleMs: DEFAULT_RETRY_SCHEDULE_MS, allowLoopback: false },
      log: infra.log,
    }),
  };
}
export type Services = ReturnType<typeof createServices>;
