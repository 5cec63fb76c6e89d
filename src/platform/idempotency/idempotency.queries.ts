import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.ts';

export interface KeyRow {
  fingerprint: string;
  state: 'running' | 'done';
  status: number | null;
  contentType: string | null;
  body: string | null;
}

/** Forgets the partner's key when its response is older than `ttlMs`, or its request died running over `staleMs` ago. */
export async function dropExpiredKey(db: Kysely<DB>, partnerId: string, key: string, ttlMs: number, staleMs: number): Promise<void> {
  await db
    .deleteFrom('idempotencyKeys')
    .where('partnerId', '=', partnerId)
    .where('key', '=', key)
    .where((eb) =>
      eb.or([
        eb('createdAt', '<', sql<Date>`now() - make_interval(secs => ${ttlMs / 1000})`),
        eb.and([eb('state', '=', 'running'), eb('createdAt', '<', sql<Date>`now() - make_interval(secs => ${staleMs / 1000})`)]),
      ]),
    )
    .execute();
}

/** Claims the key for a request: true when this call inserted it (the request runs), false when it exists. */
export async function claimKey(db: Kysely<DB>, partnerId: string, key: string, fingerprint: string): Promise<boolean> {
  const row = await db
    .insertInto('idempotencyKeys')
    .values({ partnerId, key, fingerprint, state: 'running' })
    .onConflict((oc) => oc.columns(['partnerId', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

export async function findKey(db: Kysely<DB>, partnerId: string, key: string): Promise<KeyRow | undefined> {
  return db
    .selectFrom('idempotencyKeys')
    .select(['fingerprint', 'state', 'status', 'contentType', 'body'])
    .where('partnerId', '=', partnerId)
    .where('key', '=', key)
    .executeTakeFirst();
}

/** Stores the response of the request that holds the key. */
export async function completeKey(
  db: Kysely<DB>,
  partnerId: string,
  key: string,
  response: { status: number; contentType: string; body: string },
): Promise<void> {
  await db
    .updateTable('idempotencyKeys')
    .set({ state: 'done', status: response.status, contentType: response.contentType, body: response.body, completedAt: new Date() })
    .where('partnerId', '=', partnerId)
    .where('key', '=', key)
    .where('state', '=', 'running')
    .execute();
}

/** Lets the key go without a response (the request failed in a way a retry may fix). */
export async function releaseKey(db: Kysely<DB>, partnerId: string, key: string): Promise<void> {
  await db.deleteFrom('idempotencyKeys').where('partnerId', '=', partnerId).where('key', '=', key).where('state', '=', 'running').execute();
}
