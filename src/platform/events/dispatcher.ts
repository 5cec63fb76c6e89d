import type { Kysely } from 'kysely';
import { eventsAfter, lastEventId, type OutboxRow, outboxLagSeconds } from './outbox.queries.ts';
import type { DB } from '../db/types.ts';
import type { DomainEvent } from './domain-event.ts';
import type { EventPubSub } from './pubsub.ts';

export interface DispatcherOptions {
  /** How often the outbox is read (default 200 ms); `wake()` reads at once. */
  pollMs?: number;
  /** How long a hole in the outbox ids is waited for (a transaction still committing) before it is skipped. */
  gapWaitMs?: number;
  /**
   * Hands up to `limit` unpublished events on (webhook deliveries) and marks them published, once across all
   * instances, in one statement; returns how many events it handed on and how many deliveries it queued.
   */
  handOff?: (limit: number) => Promise<{ events: number; deliveries: number }>;
  /**
   * Called after each hand-off that queued deliveries (to start sending them at once). Events no webhook takes
   * wake nothing: the delivery loop's claim would find nothing (measured: at 500 events/s without webhooks it ran
   * ~200 statements a second on the busy event loop).
   */
  handedOff?: () => void;
  log: { warn(obj: object, msg: string): void };
}

const BATCH = 500;
const FIRST_HAND_OFF = 50;

/**
 * Reads the outbox in order and dispatches it:
 * - to this process's live subscriptions: every instance tails the table itself (from where it was when it
 *   started), so an event written by any instance reaches subscribers on all of them, with no LISTEN/NOTIFY
 *   (which PGlite served over a socket does not carry) and nothing dispatched twice within a process;
 * - to `handOff` (webhooks): rows are claimed with SKIP LOCKED and marked published in the same statement, so
 *   each event is handed on exactly once across instances, including events written while no process ran.
 * The two run independently: live subscribers never wait for a webhook hand-off, nor the hand-off for them.
 */
export function createDispatcher(db: Kysely<DB>, pubsub: EventPubSub, options: DispatcherOptions) {
  const pollMs = options.pollMs ?? 200;
  const gapWaitMs = options.gapWaitMs ?? 2000;
  let cursor = '0';
  let gapSince: number | null = null;
  let timer: NodeJS.Timeout | undefined;
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

  async function handOff(handOffSome: NonNullable<DispatcherOptions['handOff']>): Promise<void> {
    // Deliveries of a batch start while the next batch is handed on; the first batch is small, so that a burst's
    // first deliveries do not wait for a whole batch to be enqueued.
    for (let size = FIRST_HAND_OFF; ; size = BATCH) {
      const { events, deliveries } = await handOffSome(size);
      if (deliveries > 0) options.handedOff?.();
      if (events < size) return;
    }
  }

  const active = () => !stopped;
  const loops = [singleFlight(tail, active), ...(options.handOff ? [singleFlight(() => handOff(options.handOff!), active)] : [])];
  for (const loop of loops) {
    loop.failed = (err) => {
      if (!stopped) options.log.warn({ err }, 'event dispatch failed; retrying');
    };
  }
  function run(): void {
    for (const loop of loops) loop.run();
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
      await Promise.all(loops.map((loop) => loop.idle()));
    },
  };
}

/**
 * Runs `work` at most once at a time: a `run()` while it runs makes it run once more afterwards, so a wake-up is
 * never lost and never runs it twice in parallel. Nothing starts once `active()` is false; `idle()` resolves when
 * no run is in flight.
 */
function singleFlight(work: () => Promise<void>, active: () => boolean) {
  let running: Promise<void> | undefined;
  let again = false;
  const loop = {
    failed: (_err: unknown): void => {},
    run(): void {
      if (!active()) return;
      if (running) {
        again = true;
        return;
      }
      running = work()
        .catch((err: unknown) => loop.failed(err))
        .finally(() => {
          running = undefined;
          if (again) {
            again = false;
            loop.run();
          }
        });
    },
    async idle(): Promise<void> {
      while (running) await running;
    },
  };
  return loop;
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
