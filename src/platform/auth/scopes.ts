import type { LegacyPlan, Tier } from '../db/types.ts';

export type { LegacyPlan, Tier };

/** The contract's named scopes; `read` is the general scope of GET search and GET vendors. */
export const SCOPES = [
  'invoices:read',
  'invoices:write',
  'receipts:write',
  'webhooks:write',
  'tenants:write',
  'inventory:read',
  'inventory:write',
  'scheduling:read',
  'scheduling:write',
  'search:read',
  'read',
] as const;
export type Scope = (typeof SCOPES)[number];

export const TIERS = ['extraction', 'storage', 'embed'] as const satisfies readonly Tier[];
export const LEGACY_PLANS = ['starter', 'professional', 'enterprise'] as const satisfies readonly LegacyPlan[];

export const TIER_NAMES: Record<Tier, string> = {
  extraction: 'Extraction API',
  storage: 'Extraction + Storage',
  embed: 'Platform Embed',
};

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
