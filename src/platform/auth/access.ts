import { Forbidden, NotFound } from '../errors.ts';
import type { Principal } from './authenticate.ts';
import { type Scope, type Tier, TIER_NAMES } from './scopes.ts';

export interface AccessRule {
  /** The named scope the key must hold (any one of them, for a list); omitted: any key. */
  scope?: Scope | readonly Scope[];
  /** Tiers the feature is sold in; omitted means every tier. */
  tiers?: readonly Tier[];
  /** Partner-level (billing, configuration): API keys only, never a tenant user's browser session. */
  partnerLevel?: boolean;
}

/**
 * The one place scopes and tiers are enforced; resolvers call it before touching a service.
 * Failures are 403 naming what is missing (DESIGN §9).
 */
export function requireAccess(principal: Principal, rule: AccessRule): void {
  if (rule.partnerLevel && principal.session) throw new Forbidden('this operation needs an API key');
  const scopes: readonly Scope[] = typeof rule.scope === 'string' ? [rule.scope] : (rule.scope ?? []);
  if (scopes.length > 0 && !scopes.some((s) => principal.scopes.has(s))) {
    throw new Forbidden(`API key lacks the required scope ${scopes.map((s) => `'${s}'`).join(' or ')}`);
  }
  if (rule.tiers && !rule.tiers.includes(principal.partner.tier)) {
    const names = rule.tiers.map((t) => TIER_NAMES[t]).join(' or ');
    throw new Forbidden(`this operation requires the ${names} tier (partner is on ${TIER_NAMES[principal.partner.tier]})`);
  }
}

/**
 * The store a request may look at: a store-scoped signed-in user is held to their store (another one is
 * NOT_FOUND, omitted means theirs); anyone else gets what they asked for.
 */
export function scopedStore(principal: Principal, requested: string | null | undefined): string | null {
  const own = principal.session?.storeId;
  if (!own) return requested ?? null;
  if (requested != null && requested !== own) throw new NotFound('store');
  return own;
}

/** A record with a store is visible to a store-scoped user only when it is their store's. */
export function visibleStore(principal: Principal, storeId: string | null | undefined): boolean {
  const own = principal.session?.storeId;
  return !own || storeId === own;
}
