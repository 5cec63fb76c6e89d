import type { Kysely } from 'kysely';
import { countStores, findStoreByExternalId, findStores, findTenantStore, insertStore, listStoresOfTenants, type StoreRow } from './stores.queries.ts';
import { findPartnerTenant, listTenants, listTenantsPage, lockTenant } from './tenants.queries.ts';
import { listUsersOfTenants, type UserRow } from '../embed/users.queries.ts';
import { type Connection, pageRequest, toConnection } from '../../platform/lib/pagination.ts';
import type { DB, TenantRow } from '../../platform/db/types.ts';
import type { Principal } from '../../platform/auth/authenticate.ts';
import { Conflict, InvalidInput, NotFound } from '../../platform/errors.ts';
import { canonicalTimeZone } from '../../platform/lib/timezone.ts';
import { freshLookup } from '../../platform/lib/fresh-lookup.ts';

export type { StoreRow, TenantRow, UserRow };

export interface StoreInput {
  externalStoreId: string;
  name?: string | null;
  timezone?: string | null;
}

const MAX_EXTERNAL_ID = 200;
const MAX_STORE_NAME = 200;
/** Tenant ownerships remembered (partner/tenant pairs found); the oldest is forgotten first. */
const MAX_KNOWN_OWNERSHIPS = 10_000;

export function createTenantsService(db: Kysely<DB>) {
  // Every subscription asks for its partner's tenants when it starts: a reconnect storm shares the lookups (each
  // caller still gets a list read after it asked). Callers share the array, so it is copied before it is handed out.
  const tenantsOf = freshLookup((partnerId: string) => listTenants(db, partnerId));

  // A tenant never changes partner and the API never deletes one, so "this partner owns this tenant", once read, stays
  // true: every request naming a tenant checks it, and only pairs found are remembered (issue 17: a statement of the
  // three a REST read costs). A tenant not (yet) found is looked up every time.
  const knownOwnerships = new Map<string, string>();
  /** The tenant's id as stored, when the partner owns the tenant named `tenantId`. */
  async function ownedTenant(partnerId: string, tenantId: string): Promise<string | undefined> {
    const pair = `${partnerId}/${tenantId}`;
    const known = knownOwnerships.get(pair);
    if (known) return known;
    const tenant = await findPartnerTenant(db, partnerId, tenantId);
    if (!tenant) return undefined;
    if (knownOwnerships.size >= MAX_KNOWN_OWNERSHIPS) knownOwnerships.delete(knownOwnerships.keys().next().value!);
    knownOwnerships.set(pair, tenant.id);
    return tenant.id;
  }

  /** The partner's tenants, or only the signed-in user's. */
  async function ownTenants(principal: Principal): Promise<TenantRow[]> {
    const rows = await tenantsOf(principal.partner.id);
    return principal.session ? rows.filter((t) => t.id === principal.session!.tenantId) : [...rows];
  }

  return {
    listForPartner: (principal: Principal): Promise<TenantRow[]> => ownTenants(principal),

    /** The partner's tenants, newest first (first: 1 to 100). */
    async page(principal: Principal, args: { first?: number | null; after?: string | null }): Promise<Connection<TenantRow>> {
      const { first, afterId, fetch } = pageRequest(args);
      const rows = await listTenantsPage(db, principal.partner.id, afterId, fetch);
      return toConnection(principal.session ? rows.filter((t) => t.id === principal.session!.tenantId) : rows, first);
    },

    /** The partner's tenants by id, in the order of `ids` (a DataLoader batch function). */
    async byIds(principal: Principal, ids: readonly string[]): Promise<(TenantRow | null)[]> {
      const rows = await ownTenants(principal);
      return ids.map((id) => rows.find((r) => r.id === id) ?? null);
    },

    /** Users grouped per tenant, in the order of `tenantIds` (a DataLoader batch function). */
    async usersOfTenants(tenantIds: readonly string[]): Promise<UserRow[][]> {
      const rows = await listUsersOfTenants(db, tenantIds);
      return tenantIds.map((id) => rows.filter((r) => r.tenantId === id));
    },

    /**
     * The tenant a request acts on: the given one if it belongs to the caller's partner, else the partner's
     * default tenant. Someone else's tenant id is reported exactly like an unknown one.
     */
    async resolve(principal: Principal, tenantId?: string | null): Promise<string> {
      if (principal.session) {
        if (tenantId != null && tenantId !== principal.session.tenantId) throw new NotFound('tenant');
        return principal.session.tenantId;
      }
      if (tenantId == null) {
        if (!principal.defaultTenantId) throw new NotFound('default tenant');
        return principal.defaultTenantId;
      }
      const id = await ownedTenant(principal.partner.id, tenantId);
      if (!id) throw new NotFound('tenant');
      return id;
    },

    /** The tenants a read may look at: the given one (if the partner's), else all of the partner's tenants. */
    async scope(principal: Principal, tenantId?: string | null): Promise<string[]> {
      if (principal.session) {
        if (tenantId != null && tenantId !== principal.session.tenantId) throw new NotFound('tenant');
        return [principal.session.tenantId];
      }
      if (tenantId != null) {
        const id = await ownedTenant(principal.partner.id, tenantId);
        if (!id) throw new NotFound('tenant');
        return [id];
      }
      return (await tenantsOf(principal.partner.id)).map((t) => t.id);
    },

    /** Checks that the store belongs to the tenant (404 `store not found` otherwise). */
    async requireStore(tenantId: string, storeId: string): Promise<StoreRow> {
      const store = await findTenantStore(db, tenantId, storeId);
      if (!store) throw new NotFound('store');
      return store;
    },

    /**
     * Creates a store, idempotent on `externalStoreId`: the same id again returns the existing store
     * (`created: false`) unless the name or time zone given differ (409). The tenant's `maxLocations` bounds how
     * many stores it may have (409 naming the limit); the tenant row is locked so concurrent creates respect it.
     */
    async createStore(tenantId: string, input: StoreInput): Promise<{ store: StoreRow; created: boolean }> {
      const externalStoreId = input.externalStoreId.trim();
      if (!externalStoreId) throw InvalidInput.field('externalStoreId', 'must not be empty');
      if (externalStoreId.length > MAX_EXTERNAL_ID) throw InvalidInput.field('externalStoreId', `must be at most ${MAX_EXTERNAL_ID} characters`);
      const name = input.name?.trim() || null;
      if (name && name.length > MAX_STORE_NAME) throw InvalidInput.field('name', `must be at most ${MAX_STORE_NAME} characters`);
      const timezone = input.timezone == null ? null : canonicalTimeZone(input.timezone);
      return db.transaction().execute(async (trx) => {
        const tenant = await lockTenant(trx, tenantId);
        if (!tenant) throw new NotFound('tenant');
        const existing = await findStoreByExternalId(trx, tenantId, externalStoreId);
        if (existing) {
          const differs = [
            name !== null && name !== existing.name ? `name "${existing.name ?? ''}"` : null,
            timezone !== null && timezone !== existing.timezone ? `timezone ${existing.timezone}` : null,
          ].filter(Boolean);
          if (differs.length) {
            throw new Conflict(`store with externalStoreId "${externalStoreId}" already exists with ${differs.join(' and ')}`);
          }
          return { store: existing, created: false };
        }
        const count = await countStores(trx, tenantId);
        if (count >= tenant.maxLocations) {
          throw new Conflict(`tenant allows at most ${tenant.maxLocations} location${tenant.maxLocations === 1 ? '' : 's'} (maxLocations) and has ${count}`);
        }
        const store = await insertStore(trx, { tenantId, externalStoreId, name, timezone: timezone ?? 'UTC' });
        return { store, created: true };
      });
    },

    /** Stores by id among the given tenants, in the order of `ids` (a DataLoader batch function). */
    async storesByIds(tenantIds: readonly string[], ids: readonly string[]): Promise<(StoreRow | null)[]> {
      const rows = await findStores(db, tenantIds, ids);
      return ids.map((id) => rows.find((r) => r.id === id) ?? null);
    },

    /** Stores grouped per tenant, in the order of `tenantIds` (a DataLoader batch function). */
    async storesOfTenants(tenantIds: readonly string[]): Promise<StoreRow[][]> {
      const rows = await listStoresOfTenants(db, tenantIds);
      return tenantIds.map((id) => rows.filter((r) => r.tenantId === id));
    },
  };
}
export type TenantsService = ReturnType<typeof createTenantsService>;
