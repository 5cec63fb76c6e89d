import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { createAuthenticator } from './auth/authenticate.ts';
import { categorizeLineItem } from './extraction/categories.ts';
import type { DocumentReader } from './extraction/reader.ts';
import { taxCategoryForReceipt } from './extraction/tax-categories.ts';
import { createInvoicesService } from './invoices.service.ts';
import { createPartnersService } from './partners.service.ts';
import { createReceiptsService } from './receipts.service.ts';
import type { BlobStore } from './storage/index.ts';
import { createTenantsService } from './tenants.service.ts';
import { createUploadsService } from './uploads.service.ts';
import { createVendorsService } from './vendors.service.ts';

/** What the services run on besides the database (built and closed by the composition root). */
export interface Infrastructure {
  reader: DocumentReader;
  blobs: BlobStore;
}

/** Every domain service, built once per process over one database. */
export function createServices(db: Kysely<DB>, infra: Infrastructure) {
  const tenants = createTenantsService(db);
  const invoices = createInvoicesService(db, { categorize: categorizeLineItem, tenants });
  const receipts = createReceiptsService(db, {
    categorize: categorizeLineItem,
    taxCategorize: (fields) => taxCategoryForReceipt(fields, fields.lineItems),
    tenants,
  });
  return {
    authenticate: createAuthenticator(db),
    partners: createPartnersService(db),
    tenants,
    vendors: createVendorsService(db, tenants),
    invoices,
    receipts,
    uploads: createUploadsService({ ...infra, tenants, invoices, receipts }),
  };
}
export type Services = ReturnType<typeof createServices>;
