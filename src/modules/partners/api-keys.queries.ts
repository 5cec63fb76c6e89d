import type { Kysely } from 'kysely';
import type { ApiKeyRow, DB, LegacyPlan, Tier } from '../../platform/db/types.ts';

export interface KeyOwner {
  keyId: string;
  prefix: string;
  scopes: string[];
  partnerId: string;
  partnerName: string;
  tier: Tier;
  legacyPlan: LegacyPlan | null;
  defaultTenantId: string | null;
}

export async function insertApiKey(db: Kysely<DB>, partnerId: string, key: { keyHash: string; prefix: string; scopes: string[] }): Promise<ApiKeyRow> {
  return db.insertInto('apiKeys').values({ partnerId, keyHash: key.keyHash, prefix: key.prefix, scopes: key.scopes }).returningAll().executeTakeFirstOrThrow();
}

/** The live (not revoked) key with this hash, with what the request needs to know of its partner. */
export async function findActiveKeyByHash(db: Kysely<DB>, keyHash: string): Promise<KeyOwner | undefined> {
  return db
    .selectFrom('apiKeys as k')
    .innerJoin('partners as p', 'p.id', 'k.partnerId')
    .leftJoin('tenants as t', (join) => join.onRef('t.partnerId', '=', 'p.id').on('t.isDefault', '=', true))
    .select(['k.id as keyId', 'k.prefix', 'k.scopes', 'p.id as partnerId', 'p.name as partnerName', 'p.tier', 'p.legacyPlan', 't.id as defaultTenantId'])
    .where('k.keyHash', '=', keyHash)
    .where('k.revokedAt', 'is', null)
    .executeTakeFirst();
}

/** Revokes the key with this display prefix; returns how many live keys it revoked (0 or 1). */
export async function revokeKeyByPrefix(db: Kysely<DB>, prefix: string): Promise<number> {
  const result = await db.updateTable('apiKeys').set({ revokedAt: new Date() }).where('prefix', '=', prefix).where('revokedAt', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Which of these key hashes belong to live (not revoked) keys: one statement for every open connection. */
export async function liveKeyHashes(db: Kysely<DB>, keyHashes: readonly string[]): Promise<string[]> {
  if (keyHashes.length === 0) return [];
  const rows = await db.selectFrom('apiKeys').select('keyHash').where('keyHash', 'in', keyHashes).where('revokedAt', 'is', null).execute();
  return rows.map((r) => r.keyHash);
}
