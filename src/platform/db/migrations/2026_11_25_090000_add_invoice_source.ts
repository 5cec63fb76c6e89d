import { type Kysely, sql } from 'kysely';

// Frozen. E-invoices first (issue 14):
// - invoices.source: where a processed invoice's values came from — 'e-invoice' (the CII/UBL data a PDF carries,
//   or an uploaded XML file), 'text' (a PDF's text layer) or 'ocr'. Null while processing, for failed records, and
//   for invoices recorded before it was kept (which of text and OCR read them is not known).
// - documents.file_type: an e-invoice may be uploaded as its XML file.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table invoices
      add column source text constraint invoices__source check (source in ('e-invoice', 'text', 'ocr'))`.execute(db);
  await sql`
    alter table documents
      drop constraint documents__file_type,
      add constraint documents__file_type check (file_type in ('pdf', 'jpeg', 'png', 'webp', 'xml'))`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
