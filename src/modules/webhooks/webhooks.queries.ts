import { type Kysely, type RawBuilder, type Selectable, sql } from 'kysely';
import type { DB, WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from '../../platform/db/types.ts';

export type WebhookRow = Selectable<WebhooksTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;

/** A claimed delivery with what sending it needs from its webhook. */
export interface ClaimedDelivery extends WebhookDeliveryRow {
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

export async function insertWebhook(
  db: Kysely<DB>,
  partnerId: string,
  webhook: { tenantId: string | null; url: string; events: string[]; secret: string },
): Promise<WebhookRow> {
  return db
    .insertInto('webhooks')
    .values({ partnerId, ...webhook })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The partner's webhooks, oldest first. */
export async function listWebhooks(db: Kysely<DB>, partnerId: string): Promise<WebhookRow[]> {
  return db.selectFrom('webhooks').selectAll().where('partnerId', '=', partnerId).orderBy('createdAt').orderBy('id').execute();
}

export async function findWebhook(db: Kysely<DB>, partnerId: string, id: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('partnerId', '=', partnerId).where('id', '=', id).executeTakeFirst();
}

export async function deleteWebhook(db: Kysely<DB>, partnerId: string, id: string): Promise<boolean> {
  const res = await db.deleteFrom('webhooks').where('partnerId', '=', partnerId).where('id', '=', id).executeTakeFirst();
  return res.numDeletedRows > 0n;
}

/** New signing secret; the old one keeps signing alongside it until `previousValidUntil`. */
export async function rotateWebhookSecret(db: Kysely<DB>, partnerId: string, id: string, secret: string, previousValidUntil: Date): Promise<boolean> {
  const res = await db
    .updateTable('webhooks')
    .set((eb) => ({ secret, previousSecret: eb.ref('secret'), previousSecretExpiresAt: previousValidUntil }))
    .where('partnerId', '=', partnerId)
    .where('id', '=', id)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/**
 * Locks a webhook row for recording an attempt of one of its deliveries (`update` before disabling it, `share`
 * otherwise) and says whether it is still enabled. Taking the webhook's lock first, before any delivery row, gives
 * every recording transaction the same lock order: two 410 answers recorded at once on two connections would
 * otherwise each hold their delivery and wait for the other's (a deadlock, and one attempt never logged).
 */
export async function lockWebhook(db: Kysely<DB>, webhookId: string, mode: 'update' | 'share'): Promise<{ enabled: boolean } | undefined> {
  const query = db.selectFrom('webhooks').select('enabled').where('id', '=', webhookId);
  return (mode === 'update' ? query.forUpdate() : query.forShare()).executeTakeFirst();
}

/** Stops deliveries to a webhook: it is disabled and its pending deliveries fail with the reason. */
export async function disableWebhook(db: Kysely<DB>, webhookId: string, reason: string): Promise<void> {
  await db.updateTable('webhooks').set({ enabled: false, disabledReason: reason }).where('id', '=', webhookId).execute();
  await db
    .updateTable('webhookDeliveries')
    .set({ status: 'failed', lastError: reason, lockedUntil: null })
    .where('webhookId', '=', webhookId)
    .where('status', '=', 'pending')
    .execute();
}

/**
 * The insert of one delivery per (outbox event among `outboxIds`, a subquery, and enabled webhook of the event's
 * partner that covers its tenant and subscribes to its type); an event already queued for a webhook is skipped. The
 * body is built here, from the outbox row: `timestamp` is the event's time as JavaScript's toISOString writes it
 * (UTC, milliseconds).
 */
function insertDeliveries(outboxIds: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`
    insert into webhook_deliveries (webhook_id, event_id, event_type, payload)
    select w.id, e.event_id, e.type,
           jsonb_build_object('type', e.type, 'timestamp', to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', e.payload)
    from outbox_events e
    join tenants t on t.id = e.tenant_id
    join webhooks w on w.partner_id = t.partner_id
      and (w.tenant_id is null or w.tenant_id = e.tenant_id)
      and w.enabled
      and e.type = any (w.events)
    where e.id in (${outboxIds})
    on conflict on constraint webhook_deliveries__webhook_id_event_id do nothing`;
}

/** Queues the deliveries of the given outbox events (by outbox id); returns how many were created. */
export async function enqueueDeliveries(db: Kysely<DB>, outboxIds: readonly string[]): Promise<number> {
  if (outboxIds.length === 0) return 0;
  const res = await insertDeliveries(sql`select unnest(${outboxIds.map(String)}::bigint[])`).execute(db);
  return Number(res.numAffectedRows ?? 0n);
}

/** What one hand-off did: events handed on (marked published) and the deliveries it queued for them. */
export interface HandOff {
  events: number;
  deliveries: number;
}

/**
 * Hands up to `limit` outbox events not handed on yet, oldest first, to webhooks: queues their deliveries and marks
 * them published, in one statement (so one exchange, and on the embedded database no connection held between
 * exchanges while the event loop is busy). Rows are claimed with FOR UPDATE SKIP LOCKED, so several instances never
 * hand one event on twice; a row another instance published meanwhile fails the re-check of `published_at`.
 */
export async function handOffEvents(db: Kysely<DB>, limit: number): Promise<HandOff> {
  const res = await sql<HandOff>`
    with claimed as (
      select id from outbox_events where published_at is null order by id limit ${limit} for update skip locked
    ), queued as (
      ${insertDeliveries(sql`select id from claimed`)}
      returning 1
    ), marked as (
      update outbox_events set published_at = now() where id in (select id from claimed) returning 1
    )
    select (select count(*) from marked)::int as events, (select count(*) from queued)::int as deliveries`.execute(db);
  return res.rows[0] ?? { events: 0, deliveries: 0 };
}

/**
 * Locks up to `limit` due deliveries of enabled webhooks for `lockSeconds` (one statement, so one short
 * transaction). A worker that dies leaves the lock to expire and the delivery is claimed again.
 */
export async function claimDueDeliveries(db: Kysely<DB>, limit: number, lockSeconds: number): Promise<ClaimedDelivery[]> {
  const res = await sql<ClaimedDelivery>`
    update webhook_deliveries d
    set locked_until = now() + make_interval(secs => ${lockSeconds})
    from webhooks w
    where w.id = d.webhook_id
      and d.id in (
        select dd.id from webhook_deliveries dd
        join webhooks ww on ww.id = dd.webhook_id and ww.enabled
        where dd.status = 'pending'
          and dd.next_attempt_at <= now()
          and (dd.locked_until is null or dd.locked_until < now())
        order by dd.next_attempt_at
        limit ${limit}
        for update of dd skip locked
      )
    returning d.*, w.url, w.secret, w.previous_secret, w.previous_secret_expires_at`.execute(db);
  return res.rows;
}

export interface AttemptOutcome {
  startedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** What the delivery becomes; `nextAttemptAt` for `pending`. */
  status: 'pending' | 'delivered' | 'failed';
  nextAttemptAt?: Date;
}

/** The earliest time a pending delivery of an enabled webhook is due (null when none is). */
export async function nextDueAt(db: Kysely<DB>): Promise<Date | null> {
  const row = await sql<{ due: Date | null }>`
    select min(greatest(d.next_attempt_at, coalesce(d.locked_until, d.next_attempt_at))) as due
    from webhook_deliveries d join webhooks w on w.id = d.webhook_id and w.enabled
    where d.status = 'pending'`.execute(db);
  return row.rows[0]?.due ?? null;
}

/** The webhooks' newest deliveries, `limit` per webhook. */
export async function listRecentDeliveries(db: Kysely<DB>, webhookIds: readonly string[], limit: number): Promise<WebhookDeliveryRow[]> {
  if (webhookIds.length === 0) return [];
  const res = await sql<WebhookDeliveryRow>`
    select d.* from unnest(${[...webhookIds]}::uuid[]) as w(id)
    cross join lateral (
      select * from webhook_deliveries where webhook_id = w.id order by created_at desc, id desc limit ${limit}
    ) d`.execute(db);
  return res.rows;
}

export async function listAttempts(db: Kysely<DB>, deliveryIds: readonly string[]): Promise<WebhookAttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db.selectFrom('webhookAttempts').selectAll().where('deliveryId', 'in', deliveryIds).orderBy('deliveryId').orderBy('attempt').execute();
}

/** A delivery of one of the partner's webhooks, with its webhook's state. */
export async function findPartnerDelivery(
  db: Kysely<DB>,
  partnerId: string,
  deliveryId: string,
): Promise<(WebhookDeliveryRow & { webhookEnabled: boolean; disabledReason: string | null }) | undefined> {
  return db
    .selectFrom('webhookDeliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhookId')
    .selectAll('d')
    .select(['w.enabled as webhookEnabled', 'w.disabledReason'])
    .where('w.partnerId', '=', partnerId)
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
}

/** Queues the delivery again now; the retry schedule starts over. */
export async function requeueDelivery(db: Kysely<DB>, partnerId: string, deliveryId: string): Promise<WebhookDeliveryRow> {
  return db
    .updateTable('webhookDeliveries')
    .set((eb) => ({ status: 'pending', nextAttemptAt: sql`now()`, lockedUntil: null, retryFrom: eb.ref('attempts') }))
    .where('webhookId', 'in', (eb) => eb.selectFrom('webhooks').select('webhooks.id').where('webhooks.partnerId', '=', partnerId))
    .where('id', '=', deliveryId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Gives a claimed delivery back untried (shutdown): it is due again at once. */
export async function releaseClaim(db: Kysely<DB>, delivery: { id: string; attempts: number }): Promise<void> {
  await db.updateTable('webhookDeliveries').set({ lockedUntil: null }).where('id', '=', delivery.id).where('attempts', '=', delivery.attempts).execute();
}
