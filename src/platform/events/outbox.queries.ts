import { type Kysely, type Selectable, sql } from 'kysely';
import type { DB, OutboxEventsTable } from '../db/types.ts';

export type OutboxRow = Selectable<OutboxEventsTable>;

/** Appends one domain event; call it with the transaction that makes the change it reports. */
export async function appendEvent(db: Kysely<DB>, tenantId: string, event: { type: string; subjectId: string; payload: unknown }): Promise<void> {
  await db
    .insertInto('outboxEvents')
    .values({ tenantId, type: event.type, subjectId: event.subjectId, payload: JSON.stringify(event.payload) })
    .execute();
}

/** A tenant's events in the order they happened. */
export async function listEvents(db: Kysely<DB>, tenantId: string, afterId = '0'): Promise<OutboxRow[]> {
  return db.selectFrom('outboxEvents').selectAll().where('tenantId', '=', tenantId).where('id', '>', afterId).orderBy('id').execute();
}

/** The newest outbox position (where a process starts tailing: subscriptions are live only). */
export async function lastEventId(db: Kysely<DB>): Promise<string> {
  const row = await db
    .selectFrom('outboxEvents')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return String(row?.id ?? '0');
}

/** Events of every tenant after `afterId`, in order (a tail's read). */
export async function eventsAfter(db: Kysely<DB>, afterId: string, limit: number): Promise<OutboxRow[]> {
  return db.selectFrom('outboxEvents').selectAll().where('id', '>', afterId).orderBy('id').limit(limit).execute();
}

/** Seconds since the oldest event not handed on yet was written (0: none waits); the unpublished index serves it. */
export async function outboxLagSeconds(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('outboxEvents')
    .select(sql<string>`extract(epoch from now() - created_at)`.as('lag'))
    .where('publishedAt', 'is', null)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row ? Math.max(0, Number(row.lag)) : 0;
}
