import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/types.ts';
import { findVendors, listVendors, scanVendors, type Vendor } from './vendors.queries.ts';
import type { Principal } from '../../platform/auth/authenticate.ts';
import { InvalidInput } from '../../platform/errors.ts';
import type { TenantsService } from '../tenants/tenants.service.ts';

export type { Vendor };

export const VENDOR_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;

export function createVendorsService(db: Kysely<DB>, tenants: TenantsService) {
  return {
    async list(principal: Principal, args: { tenantId?: string | null; limit?: number | null; offset?: number | null }): Promise<Vendor[]> {
      const limit = args.limit ?? VENDOR_PAGE.defaultLimit;
      const offset = args.offset ?? 0;
      if (!Number.isInteger(limit) || limit < 1 || limit > VENDOR_PAGE.maxLimit) {
        throw InvalidInput.field('limit', `must be an integer from 1 to ${VENDOR_PAGE.maxLimit}`);
      }
      if (!Number.isInteger(offset) || offset < 0) throw InvalidInput.field('offset', 'must be an integer of 0 or more');
      const tenantId = await tenants.resolve(principal, args.tenantId);
      return listVendors(db, tenantId, { limit, offset });
    },

    /** Vendors of every tenant in id order after `afterId` (full scans). */
    scan: (afterId: string | null, limit: number) => scanVendors(db, afterId, limit),

    /** Vendors by id among the given tenants, in the order of `ids` (null where none: a DataLoader batch). */
    async byIds(tenantIds: readonly string[], ids: readonly string[]): Promise<Array<Vendor | null>> {
      const rows = await findVendors(db, tenantIds, ids);
      return ids.map((id) => rows.find((r) => r.id === id) ?? null);
    },
  };
}
export type VendorsService = ReturnType<typeof createVendorsService>;
