import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { createAuthenticator } from './auth/authenticate.ts';
import { createCategorizer } from './extraction/categorizer.ts';
import type { Embedder } from './embeddings/embedder.ts';
import type { DocumentReader } from './extraction/reader.ts';
import { taxCategoryForReceipt } from './extraction/tax-categories.ts';
import { createInventoryService } from './inventory.service.ts';
import { createInvoicesService } from './invoices.service.ts';
import { createPartnersService } from './partners.service.ts';
import { EventPubSub } from './events/pubsub.ts';
import { createReceiptsService } from './receipts.service.ts';
import { createSchedulingService } from './scheduling.service.ts';
import { createSearchService } from './search.service.ts';
import type { BlobStore } from './storage/index.ts';
import { createTenantsService } from './tenants.service.ts';
import { createUploadsService } from './uploads.service.ts';
import { createVendorsService } from './vendors.service.ts';
import { createWebhooksService, DEFAULT_RETRY_SCHEDULE_MS, type WebhookSettings } from './webhooks.service.ts';

/** What the services run on besides the database (built and closed by the composition root). */
export interface Infrastructure {
  reader: DocumentReader;
  blobs: BlobStore;
  embedder: Embedder;
  /** Where services report what they recover from (e.g. a search-index write that failed). */
  log: { warn(obj: object, msg: string): void };
  /** Webhook delivery settings (from config); default: DESIGN §7's schedule, no loopback receivers. */
  webhooks?: WebhookSettings;
  /** The clock of date defaults and "not in the future" checks (tests pin it). */
  now?: () => Date;
}

/** Every domain service, built once per process over one database. */
export function createServices(db: Kysely<DB>, infra: Infrastructure) {
  const tenants = createTenantsService(db);
  const events = new EventPubSub();
  const written = () => events.written();
  const categorize = createCategorizer(infra.embedder);
  const invoices = createInvoicesService(db, { categorize, tenants, written });
  const receipts = createReceiptsService(db, {
    categorize,
    written,
    taxCategorize: (fields) => taxCategoryForReceipt(fields, fields.lineItems),
    tenants,
  });
  const vendors = createVendorsService(db, tenants);
  const search = createSearchService(db, { embedder: infra.embedder, tenants, vendors, invoices, receipts });
  return {
    authenticate: createAuthenticator(db),
    partners: createPartnersService(db),
    tenants,
    vendors,
    invoices,
    receipts,
    search,
    inventory: createInventoryService(db, { tenants }),
    scheduling: createSchedulingService(db, { tenants, now: infra.now }),
    /** Live domain events of this process (fed by the dispatcher from the outbox). */
    events,
    uploads: createUploadsService({ ...infra, tenants, invoices, receipts, search }),
    /** Webhook endpoints and their delivery queue (`enqueue` is for the dispatcher, `startDelivery` for main). */
    webhooks: createWebhooksService(db, {
      tenants,
      settings: infra.webhooks ?? { retryScheduleMs: DEFAULT_RETRY_SCHEDULE_MS, allowLoopback: false },
      log: infra.log,
    }),
  };
}
export type Services = ReturnType<typeof createServices>;
