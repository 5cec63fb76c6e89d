import type { Kysely } from 'kysely';
import { findTenantStore, listStoresOfTenants, type StoreRow } from '../db/stores.queries.ts';
import { findPartnerTenant, listTenants } from '../db/tenants.queries.ts';
import type { DB, TenantRow } from '../db/types.ts';
import type { Principal } from './auth/authenticate.ts';
import { NotFound } from './errors.ts';

export type { StoreRow, TenantRow };

export function createTenantsService(db: Kysely<DB>) {
  return {
    listForPartner: (principal: Principal): Promise<TenantRow[]> => listTenants(db, principal.partner.id),

    /**
     * The tenant a request acts on: the given one if it belongs to the caller's partner, else the partner's
     * default tenant. Someone else's tenant id is reported exactly like an unknown one.
     */
    async resolve(principal: Principal, tenantId?: string | null): Promise<string> {
      if (tenantId == null) {
        if (!principal.defaultTenantId) throw new NotFound('default tenant');
        return principal.defaultTenantId;
      }
      const tenant = await findPartnerTenant(db, principal.partner.id, tenantId);
      if (!tenant) throw new NotFound('tenant');
      return tenant.id;
    },

    /** The tenants a read may look at: the given one (if the partner's), else all of the partner's tenants. */
    async scope(principal: Principal, tenantId?: string | null): Promise<string[]> {
      if (tenantId != null) {
        const tenant = await findPartnerTenant(db, principal.partner.id, tenantId);
        if (!tenant) throw new NotFound('tenant');
        return [tenant.id];
      }
      return (await listTenants(db, principal.partner.id)).map((t) => t.id);
    },

    /** Checks that the store belongs to the tenant (404 `store not found` otherwise). */
    async requireStore(tenantId: string, storeId: string): Promise<StoreRow> {
      const store = await findTenantStore(db, tenantId, storeId);
      if (!store) throw new NotFound('store');
      return store;
    },

    /** Stores grouped per tenant, in the order of `tenantIds` (a DataLoader batch function). */
    async storesOfTenants(tenantIds: readonly string[]): Promise<StoreRow[][]> {
      const rows = await listStoresOfTenants(db, tenantIds);
      return tenantIds.map((id) => rows.filter((r) => r.tenantId === id));
    },
  };
}
export type TenantsService = ReturnType<typeof createTenantsService>;
