import type { Kysely } from 'kysely';
import type { DB, NewPartner, PartnerRow } from './types.ts';

export async function insertPartner(db: Kysely<DB>, partner: NewPartner): Promise<PartnerRow> {
  return db.insertInto('partners').values(partner).returningAll().executeTakeFirstOrThrow();
}

export async function findPartner(db: Kysely<DB>, partnerId: string): Promise<PartnerRow | undefined> {
  return db.selectFrom('partners').selectAll().where('id', '=', partnerId).executeTakeFirst();
}

export async function countPartners(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('partners').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
