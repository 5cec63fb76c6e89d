import { type Kysely, sql } from 'kysely';

// Frozen. What reading left out of a document, in words ("pages 51–2000 were not read (limit 50 pages per
// document)", "12 blank pages skipped"): empty for a document read whole, and for every document stored before.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table documents add column notes text[] not null default '{}'`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
