import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/types.ts';
import {
  deleteWebhook,
  enqueueDeliveries,
  type HandOff,
  handOffEvents,
  findPartnerDelivery,
  findWebhook,
  insertWebhook,
  listAttempts,
  listRecentDeliveries,
  listWebhooks,
  requeueDelivery,
  rotateWebhookSecret,
  type WebhookAttemptRow,
  type WebhookDeliveryRow,
  type WebhookRow,
} from './webhooks.queries.ts';
import type { Principal } from '../../platform/auth/authenticate.ts';
import { Conflict, InvalidInput, NotFound } from '../../platform/errors.ts';
import { EVENT_TYPES, isEventType } from '../../platform/events/domain-event.ts';
import { assertPublicUrl, type GuardOptions } from '../../platform/net/outbound-guard.ts';
import type { TenantsService } from '../tenants/tenants.service.ts';
import { type DeliveryLoop, type DeliveryLoopOptions, startDeliveryLoop } from './delivery-loop.ts';
import { generateSecret } from './signature.ts';

/** DESIGN §7's retry schedule (also WEBHOOK_RETRY_SCHEDULE's default). */
export const DEFAULT_RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

export interface WebhookSettings {
  /** Delays before each retry of a failed delivery (DESIGN §7: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). */
  retryScheduleMs: readonly number[];
  /** Loopback receivers (and http:// to them) are allowed: local development and tests only. */
  allowLoopback: boolean;
  /** Extra trusted CA certificates (PEM) for https receivers: tests with a self-signed receiver. */
  ca?: string;
  /** Name resolution for the SSRF guard (tests). */
  resolve?: GuardOptions['resolve'];
  /** Per-attempt timeout (default 15 s). */
  timeoutMs?: number;
}

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  tenantId: string | null;
  enabled: boolean;
  disabledReason: string | null;
  createdAt: Date;
}

export interface WebhookDelivery extends Omit<WebhookDeliveryRow, 'payload' | 'retryFrom' | 'lockedUntil'> {
  payload: Record<string, unknown>;
  attemptLog: WebhookAttemptRow[];
}

const MAX_URL_LENGTH = 2048;
const MAX_DELIVERIES = 100;
/** After a rotation the old secret keeps signing next to the new one, so receivers can switch without losing events. */
const PREVIOUS_SECRET_GRACE_MS = 24 * 3_600_000;

export function createWebhooksService(
  db: Kysely<DB>,
  deps: { tenants: TenantsService; settings: WebhookSettings; log: { warn(obj: object, msg: string): void } },
) {
  const { settings } = deps;
  let loop: DeliveryLoop | undefined;

  async function own(principal: Principal, id: string): Promise<WebhookRow> {
    const row = await findWebhook(db, principal.partner.id, id);
    if (!row) throw new NotFound('webhook');
    return row;
  }

  async function deliveriesOf(webhookIds: readonly string[], first: number): Promise<WebhookDelivery[]> {
    const rows = await listRecentDeliveries(db, webhookIds, first);
    const attempts = await listAttempts(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((r) =>
      toDelivery(
        r,
        attempts.filter((a) => a.deliveryId === r.id),
      ),
    );
  }

  return {
    /** Registers an endpoint; the secret is returned here and never again. */
    async register(principal: Principal, input: { url: string; events: readonly string[]; tenantId?: string | null }) {
      const events = validateEvents(input.events);
      const url = await validateUrl(input.url, settings);
      const tenantId = input.tenantId == null ? null : await deps.tenants.resolve(principal, input.tenantId);
      const secret = generateSecret();
      const row = await insertWebhook(db, principal.partner.id, { tenantId, url, events, secret });
      return { id: row.id, secret, url: row.url, events: row.events, webhook: toWebhook(row) };
    },

    list: async (principal: Principal): Promise<Webhook[]> => (await listWebhooks(db, principal.partner.id)).map(toWebhook),

    find: async (principal: Principal, id: string): Promise<Webhook> => toWebhook(await own(principal, id)),

    /** One of the partner's webhooks with its newest deliveries and their attempts. */
    async get(principal: Principal, id: string, first = 20): Promise<Webhook & { deliveries: WebhookDelivery[] }> {
      const row = await own(principal, id);
      return { ...toWebhook(row), deliveries: await deliveriesOf([row.id], checkFirst(first)) };
    },

    /** The newest deliveries of one of the partner's webhooks (first: 1 to 100). */
    async deliveries(principal: Principal, webhookId: string, first = 20): Promise<WebhookDelivery[]> {
      const row = await own(principal, webhookId);
      return deliveriesOf([row.id], checkFirst(first));
    },

    async delete(principal: Principal, id: string): Promise<boolean> {
      if (!(await deleteWebhook(db, principal.partner.id, id))) throw new NotFound('webhook');
      return true;
    },

    /** A new secret (returned only here); the old one also signs for 24 hours. */
    async rotateSecret(principal: Principal, id: string) {
      const secret = generateSecret();
      const previousSecretValidUntil = new Date(Date.now() + PREVIOUS_SECRET_GRACE_MS);
      if (!(await rotateWebhookSecret(db, principal.partner.id, id, secret, previousSecretValidUntil))) throw new NotFound('webhook');
      return { id, secret, previousSecretValidUntil };
    },

    /** Sends a delivery again now (any status); its retry schedule starts over. */
    async replayDelivery(principal: Principal, deliveryId: string): Promise<WebhookDelivery> {
      const found = await findPartnerDelivery(db, principal.partner.id, deliveryId);
      if (!found) throw new NotFound('webhook delivery');
      if (!found.webhookEnabled) {
        throw new Conflict(`the webhook is disabled (${found.disabledReason ?? 'no reason recorded'}); register the endpoint again`);
      }
      const row = await requeueDelivery(db, principal.partner.id, deliveryId);
      loop?.wake();
      return toDelivery(row, await listAttempts(db, [row.id]));
    },

    /** Queues one delivery per outbox event (by outbox id) and subscribed webhook; enqueueing twice is harmless. */
    enqueue: (trx: Kysely<DB>, outboxIds: readonly string[]): Promise<number> => enqueueDeliveries(trx, outboxIds),

    /**
     * The event dispatcher's hand-off: up to `limit` events not handed on yet get their deliveries and are marked
     * published in one statement, so a delivery exists exactly when its event was handed on, once across instances.
     */
    handOff: (limit: number): Promise<HandOff> => handOffEvents(db, limit),

    /**
     * Starts sending queued deliveries (once per process); `stop()` before the database closes. `onAttempt` is told
     * each recorded attempt's outcome (metrics).
     */
    startDelivery(onAttempt?: DeliveryLoopOptions['onAttempt']): { stop(): Promise<void> } {
      if (loop) throw new Error('webhook delivery already started');
      const started = startDeliveryLoop(db, { ...settings, log: deps.log, onAttempt });
      loop = started;
      return {
        stop: async () => {
          await started.stop();
          if (loop === started) loop = undefined;
        },
      };
    },

    /** Look at the delivery queue now (call after the transaction that enqueued has committed). */
    wake(): void {
      loop?.wake();
    },
  };
}
export type WebhooksService = ReturnType<typeof createWebhooksService>;

function validateEvents(events: readonly string[] | null | undefined): string[] {
  if (!Array.isArray(events) || events.length === 0) {
    throw InvalidInput.field('events', `must name at least one event (${EVENT_TYPES.join(', ')})`);
  }
  const seen = new Set<string>();
  for (const event of events) {
    if (typeof event !== 'string' || !isEventType(event)) {
      throw InvalidInput.field('events', `contains an unknown event "${String(event)}" (known: ${EVENT_TYPES.join(', ')})`);
    }
    if (seen.has(event)) throw InvalidInput.field('events', `names "${event}" more than once`);
    seen.add(event);
  }
  return [...seen];
}

async function validateUrl(raw: string, settings: WebhookSettings): Promise<string> {
  if (typeof raw !== 'string' || raw.trim() === '') throw InvalidInput.field('url', 'is required');
  if (raw.length > MAX_URL_LENGTH) throw InvalidInput.field('url', `must be at most ${MAX_URL_LENGTH} characters`);
  const { url } = await assertPublicUrl(raw.trim(), { allowLoopback: settings.allowLoopback, resolve: settings.resolve });
  if (url.hash) throw InvalidInput.field('url', 'must not contain a #fragment');
  return url.href;
}

function checkFirst(first: number): number {
  if (!Number.isInteger(first) || first < 1 || first > MAX_DELIVERIES) {
    throw InvalidInput.field('first', `must be an integer from 1 to ${MAX_DELIVERIES}`);
  }
  return first;
}

function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    tenantId: row.tenantId,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    createdAt: row.createdAt,
  };
}

function toDelivery(row: WebhookDeliveryRow, attemptLog: WebhookAttemptRow[]): WebhookDelivery {
  const { payload, retryFrom: _r, lockedUntil: _l, ...rest } = row;
  return { ...rest, payload: (typeof payload === 'string' ? JSON.parse(payload) : payload) as Record<string, unknown>, attemptLog };
}
