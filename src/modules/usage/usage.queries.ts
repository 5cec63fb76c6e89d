import type { Insertable, Kysely } from 'kysely';
import type { DB, UsageRecordsTable } from '../../platform/db/types.ts';

/** Meters a processed document once (a retry of the same document is not charged twice). */
export async function insertUsageRecord(db: Kysely<DB>, row: Insertable<UsageRecordsTable>): Promise<void> {
  await db
    .insertInto('usageRecords')
    .values(row)
    .onConflict((oc) => oc.column('documentId').doNothing())
    .execute();
}

export interface UsageTotals {
  tenantId: string;
  kind: string;
  channel: string;
  documents: number;
  pages: number;
  amount: number;
}

/** Documents, pages and amount of a partner in [from, to), per tenant, kind and channel. */
export async function usageTotals(db: Kysely<DB>, partnerId: string, from: Date, to: Date): Promise<UsageTotals[]> {
  const rows = await db
    .selectFrom('usageRecords')
    .select(['tenantId', 'kind', 'channel'])
    .select((eb) => [eb.fn.countAll<string>().as('documents'), eb.fn.sum<string>('pages').as('pages'), eb.fn.sum<string>('price').as('amount')])
    .where('partnerId', '=', partnerId)
    .where('createdAt', '>=', from)
    .where('createdAt', '<', to)
    .groupBy(['tenantId', 'kind', 'channel'])
    .execute();
  return rows.map((r) => ({ ...r, documents: Number(r.documents), pages: Number(r.pages), amount: Number(r.amount) }));
}
