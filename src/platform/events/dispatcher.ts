import type { Kysely } from 'kysely';
import { eventsAfter, lastEventId, type OutboxRow, outboxLagSeconds, publishPending } from './outbox.queries.ts';
import type { DB } from '../db/types.ts';
import type { DomainEvent } from './domain-event.ts';
import type { EventPubSub } from './pubsub.ts';

export interface DispatcherOptions {
  /** How often the outbox is read (default 200 ms); `wake()` reads at once. */
  pollMs?: number;
  /** How long a hole in the outbox ids is waited for (a transaction still committing) before it is skipped. */
  gapWaitMs?: number;
  /** Hands each unpublished event on (by outbox id), once across all instances (webhook deliveries); inside the claiming transaction. */
  publish?: (trx: Kysely<DB>, outboxIds: readonly string[]) => Promise<void>;
  /** Called after each `publish` transaction committed (e.g. to start deliveries at once). */
  published?: () => void;
  log: { warn(obj: object, msg: string): void };
}

const BATCH = 500;
const FIRST_PUBLISH = 50;

/**
 * Reads the outbox in order and dispatches it:
 * - to this process's live subscriptions: every instance tails the table itself (from where it was when it
 *   started), so an event written by any instance reaches subscribers on all of them, with no LISTEN/NOTIFY
 *   (which PGlite served over a socket does not carry) and nothing dispatched twice within a process;
 * - to `publish` (webhooks): rows are claimed with SKIP LOCKED and marked published in the same transaction, so
 *   each event is handed on exactly once across instances, including events written while no process ran.
 */
export function createDispatcher(db: Kysely<DB>, pubsub: EventPubSub, options: DispatcherOptions) {
  const pollMs = options.pollMs ?? 200;
  const gapWaitMs = options.gapWaitMs ?? 2000;
  let cursor = '0';
  let gapSince: number | null = null;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  async function tail(): Promise<void> {
    for (;;) {
      const rows = await eventsAfter(db, cursor, BATCH);
      let advanced = 0;
      for (const row of rows) {
        // Ids are handed out before commit: a hole may be a transaction that has not committed yet.
        if (BigInt(row.id) !== BigInt(cursor) + 1n) {
          gapSince ??= Date.now();
          if (Date.now() - gapSince < gapWaitMs) break;
        }
        gapSince = null;
        cursor = row.id;
        advanced++;
        pubsub.publish(toDomainEvent(row));
      }
      if (advanced < BATCH) return;
    }
  }

  async function tick(): Promise<void> {
    try {
      await tail();
      if (options.publish) {
        // Deliveries of a batch start while the next batch is handed on; the first batch is small, so that a burst's
        // first deliveries do not wait for a whole batch to be enqueued.
        for (let size = FIRST_PUBLISH; ; size = BATCH) {
          const n = await publishPending(db, size, options.publish);
          if (n > 0) options.published?.();
          if (n < size) break;
        }
      }
    } catch (err) {
      if (!stopped) options.log.warn({ err }, 'event dispatch failed; retrying');
    }
  }

  function run(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = tick().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        run();
      }
    });
  }

  return {
    async start(): Promise<void> {
      cursor = await lastEventId(db);
      pubsub.onWritten(run);
      timer = setInterval(run, pollMs);
      timer.unref();
      run();
    },
    /** Read now (a local write just committed). */
    wake: run,
    /** Seconds since the oldest event not handed on yet was written (0: none waits); one indexed read. */
    lagSeconds: () => outboxLagSeconds(db),
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
export type Dispatcher = ReturnType<typeof createDispatcher>;

export function toDomainEvent(row: OutboxRow): DomainEvent {
  return {
    seq: row.id,
    id: row.eventId,
    type: row.type,
    tenantId: row.tenantId,
    subjectId: row.subjectId,
    timestamp: row.createdAt,
    data: (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as Record<string, unknown>,
  };
}
