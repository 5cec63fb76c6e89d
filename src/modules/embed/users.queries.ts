import { type Kysely, type Selectable, sql } from 'kysely';
import type { DB, OneTimeTokensTable, UserRole, UsersTable } from '../../platform/db/types.ts';

export type UserRow = Selectable<UsersTable>;
export type OneTimeTokenRow = Selectable<OneTimeTokensTable>;

/** Provisions the tenant's user with this email, or updates its name, role and store (embed sign-in). */
export async function upsertUser(
  db: Kysely<DB>,
  user: { tenantId: string; email: string; name: string; role: UserRole; storeId: string | null },
): Promise<UserRow> {
  const { rows } = await sql<UserRow>`
    insert into users (tenant_id, email, name, role, store_id)
    values (${user.tenantId}, ${user.email}, ${user.name}, ${user.role}, ${user.storeId})
    on conflict (tenant_id, lower(email)) do update
      set name = excluded.name, role = excluded.role, store_id = excluded.store_id, updated_at = now()
    returning *`.execute(db);
  return rows[0]!;
}

export async function listUsersOfTenants(db: Kysely<DB>, tenantIds: readonly string[]): Promise<UserRow[]> {
  if (tenantIds.length === 0) return [];
  return db.selectFrom('users').selectAll().where('tenantId', 'in', tenantIds).orderBy('email').execute();
}

export async function insertOneTimeToken(db: Kysely<DB>, row: Omit<OneTimeTokenRow, 'usedAt' | 'createdAt' | 'firstViewedAt' | 'binderHash'>): Promise<void> {
  await db.insertInto('oneTimeTokens').values(row).execute();
}

/**
 * Marks an unused, unexpired token used and returns it; undefined for anyone else (exactly one redemption wins).
 * `bound`: only if it is bound to this binder and was first opened after `openedAfter`.
 */
export async function redeemOneTimeToken(
  db: Kysely<DB>,
  kind: OneTimeTokenRow['kind'],
  tokenHash: string,
  at: Date,
  bound?: { binderHash: string; openedAfter: Date },
): Promise<OneTimeTokenRow | undefined> {
  return db
    .updateTable('oneTimeTokens')
    .set({ usedAt: at })
    .where('tokenHash', '=', tokenHash)
    .where('kind', '=', kind)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', at)
    .$if(bound !== undefined, (q) => q.where('binderHash', '=', bound!.binderHash).where('firstViewedAt', '>', bound!.openedAfter))
    .returningAll()
    .executeTakeFirst();
}

/** Binds an unused, unexpired, never-opened token to a browser; undefined when another opening bound it first. */
export async function bindOneTimeToken(
  db: Kysely<DB>,
  kind: OneTimeTokenRow['kind'],
  tokenHash: string,
  binderHash: string,
  at: Date,
): Promise<OneTimeTokenRow | undefined> {
  return db
    .updateTable('oneTimeTokens')
    .set({ firstViewedAt: at, binderHash })
    .where('tokenHash', '=', tokenHash)
    .where('kind', '=', kind)
    .where('binderHash', 'is', null)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', at)
    .returningAll()
    .executeTakeFirst();
}

/** Ends every unused setup link of a tenant now; whether one of its setup links was ever used (the setup is done). */
export async function revokeSetupLinks(db: Kysely<DB>, tenantId: string, at: Date): Promise<{ completed: boolean }> {
  const used = await db
    .selectFrom('oneTimeTokens')
    .select('tokenHash')
    .where('tenantId', '=', tenantId)
    .where('kind', '=', 'setup')
    .where('usedAt', 'is not', null)
    .executeTakeFirst();
  if (used) return { completed: true };
  await db
    .updateTable('oneTimeTokens')
    .set({ expiresAt: at })
    .where('tenantId', '=', tenantId)
    .where('kind', '=', 'setup')
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', at)
    .execute();
  return { completed: false };
}

export async function findOneTimeToken(db: Kysely<DB>, tokenHash: string): Promise<OneTimeTokenRow | undefined> {
  return db.selectFrom('oneTimeTokens').selectAll().where('tokenHash', '=', tokenHash).executeTakeFirst();
}

export async function insertSession(db: Kysely<DB>, row: { tokenHash: string; userId: string; tenantId: string; expiresAt: Date }): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

/** The signed-in user of a live session, with the tenant's partner (for white-labelling). */
export async function findSession(db: Kysely<DB>, tokenHash: string, at: Date) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.userId')
    .innerJoin('tenants', 'tenants.id', 'sessions.tenantId')
    .innerJoin('partners', 'partners.id', 'tenants.partnerId')
    .select([
      'users.id as userId',
      'users.email',
      'users.name',
      'users.role',
      'users.storeId',
      'tenants.id as tenantId',
      'tenants.name as tenantName',
      'partners.id as partnerId',
      'partners.name as partnerName',
      'partners.tier',
      'partners.legacyPlan',
      'sessions.expiresAt',
    ])
    .where('sessions.tokenHash', '=', tokenHash)
    .where('sessions.expiresAt', '>', at)
    .executeTakeFirst();
}

/** Which of these session token hashes belong to sessions live at `at`. */
export async function liveSessionHashes(db: Kysely<DB>, tokenHashes: readonly string[], at: Date): Promise<string[]> {
  if (tokenHashes.length === 0) return [];
  const rows = await db.selectFrom('sessions').select('tokenHash').where('tokenHash', 'in', tokenHashes).where('expiresAt', '>', at).execute();
  return rows.map((r) => r.tokenHash);
}
