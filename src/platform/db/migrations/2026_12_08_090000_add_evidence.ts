import { type Kysely, sql } from 'kysely';

// Frozen. Evidence for every value (issue 48, point 3): where on the original each value was read.
// - invoices.evidence, receipts.evidence: a JSON array of { field, value, confidence, page, box, source } for the
//   header fields; invoice_line_items.evidence, receipt_line_items.evidence: the same for each line's cells.
// Null while processing, for failed records, for records whose provider gave none, and for records written before
// evidence was kept (nothing is filled in for them: reading the originals again is not a migration's job).
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['invoices', 'invoice_line_items', 'receipts', 'receipt_line_items']) {
    await sql`alter table ${sql.table(table)} add column evidence jsonb`.execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
