import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/types.ts';
import { type AttemptOutcome, type ClaimedDelivery, claimDueDeliveries, disableWebhook, lockWebhook, nextDueAt, releaseClaim } from './webhooks.queries.ts';
import { recordAttempts, shareLockWebhooks } from './attempts.queries.ts';
import { assertPublicUrl, type GuardOptions, type PublicUrl } from '../../platform/net/outbound-guard.ts';
import { createConnectionPool } from './connections.ts';
import { type SendResult, send } from './sender.ts';
import { signedHeaders } from './signature.ts';

export interface DeliveryLoopOptions {
  /** Delay before each retry; after the last retry fails the delivery is `failed`. */
  retryScheduleMs: readonly number[];
  allowLoopback: boolean;
  /** Extra trusted CA certificates (PEM) for https receivers (tests). */
  ca?: string;
  resolve?: GuardOptions['resolve'];
  /** Per attempt (default 15 s). */
  timeoutMs?: number;
  /** Upper bound of the wait between two looks at the queue (default 1 s): deliveries queued by other instances. */
  pollMs?: number;
  batchSize?: number;
  log: { warn(obj: object, msg: string): void };
  /** Told the outcome of each recorded attempt: delivered, retry (another is scheduled) or failed (no more). */
  onAttempt?: (outcome: 'delivered' | 'retry' | 'failed') => void;
}

/** One attempt's answer, waiting to be recorded with the rest of its batch. */
type Sent = { d: ClaimedDelivery; startedAt: Date; result: SendResult };

// A claim outlives the longest attempt (timeout + recording), so a live worker never loses its delivery.
const LOCK_SECONDS = 30;
/** Batches in flight at once (see `tick`). */
const LANES = 3;

/**
 * Sends due deliveries until stopped. Claims are one short statement; the HTTP calls happen outside any
 * transaction (PGlite has one backend). A process killed mid-attempt leaves a lock that expires, and the
 * delivery is sent again (at least once; receivers dedupe on webhook-id).
 */
export function startDeliveryLoop(db: Kysely<DB>, options: DeliveryLoopOptions) {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const pollMs = options.pollMs ?? 1000;
  const batchSize = options.batchSize ?? 50;
  const stopping = new AbortController();
  const connections = createConnectionPool();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  /** Sends one delivery; null when shutdown cut it short (handed back, not an attempt). */
  async function sendOne(d: ClaimedDelivery): Promise<Sent | null> {
    const payload = (typeof d.payload === 'string' ? JSON.parse(d.payload) : d.payload) as Record<string, unknown>;
    // Top-level order as documented (jsonb does not keep key order); the same bytes on every retry.
    const body = JSON.stringify({ type: payload.type, timestamp: payload.timestamp, data: payload.data });
    const now = new Date();
    const secrets = [d.secret];
    if (d.previousSecret && d.previousSecretExpiresAt && new Date(d.previousSecretExpiresAt) > now) secrets.push(d.previousSecret);
    let target: PublicUrl;
    try {
      // DNS may have changed since registration: check again, and connect to exactly what was checked.
      target = await assertPublicUrl(d.url, { allowLoopback: options.allowLoopback, resolve: options.resolve });
    } catch (err) {
      return { d, startedAt: now, result: { statusCode: null, latencyMs: 0, error: `not sent: ${(err as Error).message}` } };
    }
    const headers = signedHeaders(secrets, d.eventId, body, now);
    const agent = connections.agentFor(target, options.ca);
    const result = await send(target, headers, body, { timeoutMs, ca: options.ca, signal: stopping.signal, agent });
    // Cut short by shutdown: not an attempt; handed back to be sent again (by whichever instance runs next).
    if (stopping.signal.aborted && result.statusCode === null) {
      await releaseClaim(db, d);
      return null;
    }
    return { d, startedAt: now, result };
  }

  /**
   * Records the attempts of one batch in one transaction (a commit per delivery was most of a delivery's cost on the
   * embedded database), in a few statements whatever the batch size. The webhooks are locked first, in id order —
   * the lock order every recording transaction takes, so two instances cannot deadlock — then the deliveries.
   */
  async function record(batch: Sent[]): Promise<void> {
    const statuses = await db.transaction().execute(async (trx) => {
      const gone = new Set(batch.filter((s) => s.result.statusCode === 410).map((s) => s.d.webhookId));
      const ids = [...new Set(batch.map((s) => s.d.webhookId))].sort();
      let enabled: Map<string, boolean>;
      if (gone.size === 0) enabled = await shareLockWebhooks(trx, ids);
      else {
        enabled = new Map();
        for (const id of ids) enabled.set(id, (await lockWebhook(trx, id, gone.has(id) ? 'update' : 'share'))?.enabled ?? true);
      }
      const outcomes = batch.map(({ d, result, startedAt }) => {
        const outcome = decide(d, result, startedAt);
        // Disabled while this attempt was in flight (another delivery got 410): no retry will be sent.
        return enabled.get(d.webhookId) === false && outcome.status === 'pending'
          ? { ...outcome, status: 'failed' as const, nextAttemptAt: undefined }
          : outcome;
      });
      const recorded = await recordAttempts(
        trx,
        batch.map(({ d }, i) => ({
          id: d.id,
          attempts: d.attempts,
          ...outcomes[i]!,
          ...(outcomes[i]!.status === 'delivered' ? { deliveredAt: new Date() } : {}),
        })),
      );
      const disabled = new Set<string>();
      for (const { d, result, startedAt } of batch) {
        if (result.statusCode !== 410 || !recorded.has(d.id) || disabled.has(d.webhookId)) continue;
        // Fails the webhook's pending deliveries, those just recorded as retries included.
        await disableWebhook(trx, d.webhookId, `the endpoint answered 410 Gone on ${startedAt.toISOString()}`);
        disabled.add(d.webhookId);
      }
      return batch.flatMap(({ d }, i) => {
        if (!recorded.has(d.id)) return [];
        const status = outcomes[i]!.status;
        return [status === 'pending' && disabled.has(d.webhookId) ? 'failed' : status];
      });
    });
    for (const status of statuses) options.onAttempt?.(status === 'pending' ? 'retry' : status);
  }

  /** Records a batch; if that fails, each attempt on its own, so one bad row costs only its own record. */
  async function recordBatch(batch: Sent[]): Promise<void> {
    if (batch.length === 0) return;
    try {
      await record(batch);
    } catch (err) {
      if (batch.length === 1) return options.log.warn({ err, deliveryId: batch[0]!.d.id }, 'webhook delivery attempt not recorded');
      for (const one of batch) await recordBatch([one]);
    }
  }

  function decide(d: ClaimedDelivery, result: SendResult, startedAt: Date): AttemptOutcome {
    const base = { startedAt, statusCode: result.statusCode, latencyMs: result.latencyMs, error: result.error };
    const code = result.statusCode ?? 0;
    if (code >= 200 && code < 300) return { ...base, status: 'delivered' };
    if (code === 410) return { ...base, status: 'failed' };
    const sinceQueued = d.attempts + 1 - d.retryFrom;
    const delay = options.retryScheduleMs[sinceQueued - 1];
    if (delay === undefined) return { ...base, status: 'failed' };
    return { ...base, status: 'pending', nextAttemptAt: new Date(Date.now() + delay) };
  }

  /** Claims, sends and records batches until the queue has no full batch left. */
  async function lane(): Promise<void> {
    for (;;) {
      const claimed = await claimDueDeliveries(db, batchSize, LOCK_SECONDS);
      const sent = await Promise.all(
        claimed.map((d) => sendOne(d).catch((err) => (options.log.warn({ err, deliveryId: d.id }, 'webhook delivery attempt not sent'), null))),
      );
      await recordBatch(sent.filter((s) => s !== null));
      if (claimed.length < batchSize || stopping.signal.aborted) break;
    }
  }

  /**
   * Three lanes at once: while one batch waits for its receivers, another is claimed or recorded (the database and
   * the network were used in turn). Claims skip each other's locked rows.
   */
  async function tick(): Promise<void> {
    const failed = (err: unknown) => {
      if (!stopping.signal.aborted) options.log.warn({ err }, 'webhook delivery loop failed; retrying');
    };
    // Each lane ends on its own: the tick (and so `stop()`) waits for all of them.
    await Promise.all(Array.from({ length: LANES }, () => lane().catch(failed)));
  }

  async function plan(): Promise<void> {
    if (stopping.signal.aborted) return;
    let wait = pollMs;
    try {
      const due = await nextDueAt(db);
      if (due) wait = Math.min(pollMs, Math.max(0, new Date(due).getTime() - Date.now()));
    } catch {
      // the next tick reports database trouble
    }
    if (stopping.signal.aborted) return;
    clearTimeout(timer);
    timer = setTimeout(run, wait);
    timer.unref();
  }

  function run(): void {
    if (stopping.signal.aborted) return;
    if (running) {
      again = true;
      return;
    }
    running = tick()
      .then(plan)
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          run();
        }
      });
  }

  run();
  return {
    /** Look at the queue now (deliveries were just committed). */
    wake: run,
    /** Stops claiming; attempts in flight are abandoned (their locks expire) and the loop's work awaited. */
    async stop(): Promise<void> {
      stopping.abort();
      clearTimeout(timer);
      await running;
      connections.destroy();
    },
  };
}
export type DeliveryLoop = ReturnType<typeof startDeliveryLoop>;
