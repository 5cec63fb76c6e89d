import { type Kysely, sql } from 'kysely';

// Frozen. A setup link is bound to the browser that opens it first (issue 47, point 2):
// - one_time_tokens.first_viewed_at: when the link was first opened; it works for a short window after that
// - one_time_tokens.binder_hash: SHA-256 of the random value in the cookie that first opening set; later openings and
//   the form need that cookie
// Both are set together, once; embed sign-in links never set them (they are used up by their one opening).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table one_time_tokens
      add column first_viewed_at timestamptz,
      add column binder_hash text,
      add constraint one_time_tokens__first_view check ((first_viewed_at is null) = (binder_hash is null))`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
