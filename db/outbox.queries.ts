import type { Kysely, Selectable } from 'kysely';
import type { DB, OutboxEventsTable } from './types.ts';

export type OutboxRow = Selectable<OutboxEventsTable>;

/** Appends one domain event; call it with the transaction that makes the change it reports. */
export async function appendEvent(
  db: Kysely<DB>,
  tenantId: string,
  event: { type: string; subjectId: string; payload: unknown },
): Promise<void> {
  await db
    .insertInto('outboxEvents')
    .values({ tenantId, type: event.type, subjectId: event.subjectId, payload: JSON.stringify(event.payload) })
    .execute();
}

/** A tenant's events in the order they happened. */
export async function listEvents(db: Kysely<DB>, tenantId: string, afterId = '0'): Promise<OutboxRow[]> {
  return db
    .selectFrom('outboxEvents')
    .selectAll()
    .where('tenantId', '=', tenantId)
    .where('id', '>', afterId)
    .orderBy('id')
    .execute();
}
