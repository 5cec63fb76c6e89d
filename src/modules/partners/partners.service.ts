import type { Kysely } from 'kysely';
import { insertApiKey, revokeKeyByPrefix } from './api-keys.queries.ts';
import { countPartners, findPartner, insertPartner, setPartnerPrice } from './partners.queries.ts';
import { insertTenant } from '../tenants/tenants.queries.ts';
import type { DB, LegacyPlan, Tier } from '../../platform/db/types.ts';
import { generateApiKey } from '../../platform/auth/api-key.ts';
import { isScope, LEGACY_PLANS, SCOPES, type Scope, TIERS } from '../../platform/auth/scopes.ts';
import { InvalidInput, NotFound } from '../../platform/errors.ts';
import { isUuid } from '../../platform/lib/ids.ts';

export interface CreatedPartner {
  partnerId: string;
  tenantId: string;
  apiKey: string;
}

/** Partner and key administration (admin CLI, the loopback admin endpoint, the first-start demo partner). */
export function createPartnersService(db: Kysely<DB>, deps: { /** A key was revoked (live connections re-check theirs). */ revoked?: () => void } = {}) {
  async function issueKey(trx: Kysely<DB>, partnerId: string, scopes: readonly Scope[]): Promise<string> {
    const key = generateApiKey();
    await insertApiKey(trx, partnerId, { keyHash: key.keyHash, prefix: key.prefix, scopes: [...scopes] });
    return key.apiKey;
  }

  return {
    /** A partner with a default tenant and one key holding every scope. */
    async createPartner(input: { name: string; tier: string; legacyPlan?: string | null }): Promise<CreatedPartner> {
      const name = input.name?.trim();
      if (!name || name.length > 200) throw InvalidInput.field('name', 'must be 1 to 200 characters');
      const tier = parseEnum(input.tier, TIERS, 'tier');
      const legacyPlan = input.legacyPlan == null ? null : parseEnum(input.legacyPlan, LEGACY_PLANS, 'legacyPlan');
      return db.transaction().execute(async (trx) => {
        const partner = await insertPartner(trx, { name, tier: tier as Tier, legacyPlan: legacyPlan as LegacyPlan | null });
        const tenant = await insertTenant(trx, partner.id, { name, isDefault: true });
        const apiKey = await issueKey(trx, partner.id, SCOPES);
        return { partnerId: partner.id, tenantId: tenant.id, apiKey };
      });
    },

    /** A custom price per processed document (USD, Platform Embed's "custom"); null returns to the tier's list price. */
    async setPrice(input: { partnerId: string; price: number | null }): Promise<{ partnerId: string; pricePerDocument: number | null }> {
      if (!isUuid(input.partnerId)) throw InvalidInput.field('partner', 'must be a partner id (UUID)');
      const { price } = input;
      if (price !== null && !(Number.isFinite(price) && price >= 0 && price <= 1000)) {
        throw InvalidInput.field('price', 'must be a number from 0 to 1000 (USD per document), or none');
      }
      if (!(await setPartnerPrice(db, input.partnerId, price))) throw new NotFound('partner');
      return { partnerId: input.partnerId, pricePerDocument: price };
    },

    async createApiKey(input: { partnerId: string; scopes?: readonly string[] }): Promise<{ apiKey: string }> {
      if (!isUuid(input.partnerId)) throw InvalidInput.field('partner', 'must be a partner id (UUID)');
      const scopes = input.scopes ?? SCOPES;
      const unknown = scopes.filter((s) => !isScope(s));
      if (unknown.length > 0) {
        throw InvalidInput.field('scopes', `has unknown scope(s) ${unknown.join(', ')}; known: ${SCOPES.join(', ')}`);
      }
      if (scopes.length === 0) throw InvalidInput.field('scopes', 'must name at least one scope');
      const partner = await findPartner(db, input.partnerId);
      if (!partner) throw new NotFound('partner');
      return { apiKey: await issueKey(db, partner.id, [...new Set(scopes)] as Scope[]) };
    },

    async revokeApiKey(prefix: string): Promise<{ revoked: number }> {
      if (!prefix?.trim()) throw InvalidInput.field('prefix', 'is required');
      const revoked = await revokeKeyByPrefix(db, prefix.trim());
      if (revoked === 0) throw new NotFound(`live API key with prefix ${prefix}`);
      deps.revoked?.();
      return { revoked };
    },

    countPartners: () => countPartners(db),
  };
}
export type PartnersService = ReturnType<typeof createPartnersService>;

function parseEnum<T extends string>(value: string | undefined, allowed: readonly T[], field: string): T {
  if (value && (allowed as readonly string[]).includes(value)) return value as T;
  throw InvalidInput.field(field, `must be one of ${allowed.join(', ')}`);
}
