import { type Kysely, sql } from 'kysely';

// Frozen. Duplicate documents (issue 18, point 4):
// - invoices.duplicate_of / receipts.duplicate_of: the record this upload repeats (same bytes in the tenant, or for
//   invoices the same vendor, invoice number and total). A duplicate counts nowhere: vendor totals, spend, search and
//   default lists leave it out.
// - invoices.forced: the partner asked for a fresh record; never marked a duplicate, also when a crash makes another
//   instance finish it.
// - the index the vendor + number lookup uses: an invoice number compared by its letters and digits only, upper-cased
//   (`INV-0042`, `inv 0042` and `INV0042` are one number). The expression is repeated in invoices.queries.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table invoices
      add column duplicate_of uuid constraint invoices__duplicate_of references invoices (id) on delete set null,
      add column forced boolean not null default false`.execute(db);
  await sql`
    create index invoices__duplicate_match_idx
      on invoices (tenant_id, vendor_id, (upper(regexp_replace(invoice_number, '[^0-9A-Za-z]', '', 'g'))))
      where status = 'processed' and duplicate_of is null`.execute(db);
  await sql`
    alter table receipts
      add column duplicate_of uuid constraint receipts__duplicate_of references receipts (id) on delete set null`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
