import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/types.ts';

export interface BrandingRow {
  partnerName: string;
  brandName: string | null;
  brandLogoUrl: string | null;
  brandColor: string | null;
}

export type BrandingChanges = Partial<Pick<BrandingRow, 'brandName' | 'brandLogoUrl' | 'brandColor'>>;

export async function findBranding(db: Kysely<DB>, partnerId: string): Promise<BrandingRow | undefined> {
  return db.selectFrom('partners').select(['name as partnerName', 'brandName', 'brandLogoUrl', 'brandColor']).where('id', '=', partnerId).executeTakeFirst();
}

/** Sets the given brand columns (null clears one); the row after the change, undefined when there is no partner. */
export async function updateBranding(db: Kysely<DB>, partnerId: string, changes: BrandingChanges): Promise<BrandingRow | undefined> {
  if (Object.keys(changes).length === 0) return findBranding(db, partnerId);
  return db
    .updateTable('partners')
    .set(changes)
    .where('id', '=', partnerId)
    .returning(['name as partnerName', 'brandName', 'brandLogoUrl', 'brandColor'])
    .executeTakeFirst();
}
