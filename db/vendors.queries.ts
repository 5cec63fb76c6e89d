import type { Kysely } from 'kysely';
import type { DB } from './types.ts';

export interface Vendor {
  id: string;
  tenantId: string;
  name: string;
  normalizedName: string;
  invoiceCount: number;
  totalSpent: number;
  createdAt: Date;
}

/** A tenant's vendors, biggest spend first, then by name (a stable order for offset paging). */
export async function listVendors(
  db: Kysely<DB>,
  tenantId: string,
  page: { limit: number; offset: number },
): Promise<Vendor[]> {
  const rows = await db
    .selectFrom('vendors')
    .selectAll()
    .where('tenantId', '=', tenantId)
    .orderBy('totalSpent', 'desc')
    .orderBy('normalizedName')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map((r) => ({ ...r, totalSpent: Number(r.totalSpent) }));
}
