import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { createAuthenticator } from './auth/authenticate.ts';
import { createCategorizer } from './extraction/categorizer.ts';
import type { Embedder } from './embeddings/embedder.ts';
import type { DocumentReader } from './extraction/reader.ts';
import { taxCategoryForReceipt } from './extraction/tax-categories.ts';
import { createInvoicesService } from './invoices.service.ts';
import { createPartnersService } from './partners.service.ts';
import { createReceiptsService } from './receipts.service.ts';
import { createSearchService } from './search.service.ts';
import type { BlobStore } from './storage/index.ts';
import { createTenantsService } from './tenants.service.ts';
import { createUploadsService } from './uploads.service.ts';
import { createVendorsService } from './vendors.service.ts';

/** What the services run on besides the database (built and closed by the composition root). */
export interface Infrastructure {
  reader: DocumentReader;
  blobs: BlobStore;
  embedder: Embedder;
  /** Where services report what they recover from (e.g. a search-index write that failed). */
  log: { warn(obj: object, msg: string): void };
}

/** Every domain service, built once per process over one database. */
export function createServices(db: Kysely<DB>, infra: Infrastructure) {
  const tenants = createTenantsService(db);
  const categorize = createCategorizer(infra.embedder);
  const invoices = createInvoicesService(db, { categorize, tenants });
  const receipts = createReceiptsService(db, {
    categorize,
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
    uploads: createUploadsService({ ...infra, tenants, invoices, receipts, search }),
  };
}
export type Services = ReturnType<typeof createServices>;
