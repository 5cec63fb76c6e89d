import type { Kysely } from 'kysely';
import { findActiveKeyByHash } from '../../modules/partners/api-keys.queries.ts';
import type { DB } from '../db/types.ts';
import { Unauthenticated } from '../errors.ts';
import { hashApiKey, looksLikeApiKey } from './api-key.ts';
import { isScope, type LegacyPlan, type Scope, type Tier } from './scopes.ts';

/** Who is calling: one API key of one partner. */
export interface Principal {
  keyId: string;
  keyPrefix: string;
  scopes: ReadonlySet<Scope>;
  partner: { id: string; name: string; tier: Tier; legacyPlan: LegacyPlan | null };
  defaultTenantId: string | null;
  /**
   * A signed-in tenant user (browser session), not an API key: confined to this tenant (and, for store-scoped
   * roles, `storeId`); partner-level operations are refused.
   */
  session?: { userId: string; tenantId: string; storeId: string | null };
}

/** Where each endpoint family reads the key from. */
export type KeySource = 'x-api-key' | 'bearer' | 'either';

const MISSING: Record<KeySource, string> = {
  'x-api-key': 'missing API key: send it in the X-API-Key header',
  bearer: 'missing API key: send it as Authorization: Bearer <key>',
  either: 'missing API key: send it in the X-API-Key header or as Authorization: Bearer <key>',
};

export function keyFromHeaders(headers: Record<string, string | string[] | undefined>, source: KeySource): string {
  const xApiKey = first(headers['x-api-key'])?.trim();
  const bearer = /^Bearer\s+(.+)$/i.exec(first(headers.authorization)?.trim() ?? '')?.[1]?.trim();
  const key = source === 'x-api-key' ? xApiKey : source === 'bearer' ? bearer : (xApiKey ?? bearer);
  if (!key) throw new Unauthenticated(MISSING[source]);
  return key;
}

export function createAuthenticator(db: Kysely<DB>) {
  return async function authenticate(apiKey: string): Promise<Principal> {
    if (!looksLikeApiKey(apiKey)) throw new Unauthenticated('invalid API key');
    const owner = await findActiveKeyByHash(db, hashApiKey(apiKey));
    if (!owner) throw new Unauthenticated('invalid or revoked API key');
    return {
      keyId: owner.keyId,
      keyPrefix: owner.prefix,
      scopes: new Set(owner.scopes.filter(isScope)),
      partner: { id: owner.partnerId, name: owner.partnerName, tier: owner.tier, legacyPlan: owner.legacyPlan },
      defaultTenantId: owner.defaultTenantId,
    };
  };
}
export type Authenticate = ReturnType<typeof createAuthenticator>;

const MAX_CACHED_KEYS = 10_000;

/**
 * `authenticate` with the principals of live keys remembered by key hash for `ttlMs` (0: no cache), so a busy key
 * costs no statement per request. `forget()` drops them all at once: this process calls it on every revocation;
 * a key revoked by another instance (or straight in the database) is refused within `ttlMs`. Refusals are never
 * cached, and concurrent requests with one key share one lookup.
 */
export function cacheAuthentication(authenticate: Authenticate, ttlMs: number, now: () => number = Date.now) {
  const cache = new Map<string, { principal: Promise<Principal>; until: number }>();
  const cached = (apiKey: string): Promise<Principal> => {
    if (ttlMs <= 0 || !looksLikeApiKey(apiKey)) return authenticate(apiKey);
    const hash = hashApiKey(apiKey);
    const hit = cache.get(hash);
    if (hit && hit.until > now()) return hit.principal;
    const entry = { principal: authenticate(apiKey), until: now() + ttlMs };
    if (cache.size >= MAX_CACHED_KEYS) cache.delete(cache.keys().next().value!);
    cache.set(hash, entry);
    entry.principal.catch(() => cache.get(hash) === entry && cache.delete(hash));
    return entry.principal;
  };
  return Object.assign(cached, { forget: () => cache.clear() });
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
