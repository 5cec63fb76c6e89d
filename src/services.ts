import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { createAuthenticator } from './auth/authenticate.ts';
import { categorizeLineItem } from './extraction/categories.ts';
import { createInvoicesService } from './invoices.service.ts';
import { createPartnersService } from './partners.service.ts';
import { createTenantsService } from './tenants.service.ts';
import { createVendorsService } from './vendors.service.ts';

/** Every domain service, built once per process over one database. */
export function createServices(db: Kysely<DB>) {
  const tenants = createTenantsService(db);
  return {
    authenticate: createAuthenticator(db),
    partners: createPartnersService(db),
    tenants,
    vendors: createVendorsService(db, tenants),
    invoices: createInvoicesService(db, { categorize: categorizeLineItem }),
  };
}
export type Services = ReturnType<typeof createServices>;
