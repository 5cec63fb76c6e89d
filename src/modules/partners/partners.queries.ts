import type { Kysely } from 'kysely';
import type { DB, NewPartner, PartnerRow } from '../../platform/db/types.ts';

export async function insertPartner(db: Kysely<DB>, partner: NewPartner): Promise<PartnerRow> {
  return db.insertInto('partners').values(partner).returningAll().executeTakeFirstOrThrow();
}

export async function findPartner(db: Kysely<DB>, partnerId: string): Promise<PartnerRow | undefined> {
  return db.selectFrom('partners').selectAll().where('id', '=', partnerId).executeTakeFirst();
}

export async function countPartners(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('partners')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Sets or clears (null) the partner's custom price per document; false when there is no such partner. */
export async function setPartnerPrice(db: Kysely<DB>, partnerId: string, price: number | null): Promise<boolean> {
  const r = await db.updateTable('partners').set({ pricePerDocument: price }).where('id', '=', partnerId).executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** The partner's custom price per document, if it has one. */
export async function partnerPrice(db: Kysely<DB>, partnerId: string): Promise<number | null> {
  const row = await db.selectFrom('partners').select('pricePerDocument').where('id', '=', partnerId).executeTakeFirst();
  return row?.pricePerDocument == null ? null : Number(row.pricePerDocument);
}
