import type { Principal } from '../auth/authenticate.ts';
import type { LegacyPlan, Tier } from '../auth/scopes.ts';

/** Where a request came in: the REST families and GraphQL (HTTP or WebSocket) — one operation is one request. */
export type Channel = 'v1' | 'legacy' | 'adapter' | 'graphql';

export interface RatePolicy {
  /** Shown in RateLimit-Policy and errors, e.g. `storage` or `legacy-starter`. */
  name: string;
  /** Requests per sliding 60 s window per API key; null: unlimited. */
  perMinute: number | null;
  /** Requests per calendar month (UTC) per partner; null: unlimited. */
  perMonth: number | null;
}

// The contract's Limits table: tiers per minute per key; legacy plans per minute plus a monthly allowance.
const TIER_LIMITS: Record<Tier, number | null> = { extraction: 1_000, storage: 5_000, embed: null };
const PLAN_LIMITS: Record<LegacyPlan, { perMinute: number; perMonth: number | null }> = {
  starter: { perMinute: 10, perMonth: 1_000 },
  professional: { perMinute: 60, perMonth: 10_000 },
  enterprise: { perMinute: 300, perMonth: null },
};

/** The legacy family follows the partner's legacy plan (the tier when it has none); everything else the tier. */
export function ratePolicy(principal: Principal, channel: Channel): RatePolicy {
  const plan = principal.partner.legacyPlan;
  if (channel === 'legacy' && plan) return { name: `legacy-${plan}`, ...PLAN_LIMITS[plan] };
  const tier = principal.partner.tier;
  return { name: tier, perMinute: TIER_LIMITS[tier], perMonth: null };
}
