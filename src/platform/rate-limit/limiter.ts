import type { SqlPool } from '../db/pglite-dialect.ts';
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Principal } from '../auth/authenticate.ts';
import { type Channel, type RatePolicy, ratePolicy } from './policy.ts';

export interface RateDecision {
  policy: RatePolicy;
  allowed: boolean;
  /** The per-minute limit (null: unlimited) and what is left of it after this request. */
  limit: number | null;
  remaining: number | null;
  /** Seconds until the window has fully moved past the current requests. */
  reset: number;
  /** When refused: seconds to wait before a request fits again. */
  retryAfter?: number;
  /** When refused: which limit. */
  reason?: string;
  /** Requests counted this calendar month (policies with a monthly allowance). */
  monthUsed?: number;
}

export interface RateLimiterOptions {
  /** `memory`: this process only; `postgres`: shared by every instance on the database (table rate_limits). */
  store: 'memory' | 'postgres';
  pool?: SqlPool;
  now?: () => Date;
}

const WINDOW_MS = 60_000;
/** The counters never refuse by themselves: decisions are made here, over two windows. */
const UNCAPPED = 2_000_000_000;

/**
 * Sliding 60 s window per API key, estimated from the counts of the current and the previous fixed minute
 * (the previous one weighted by how much of it is still inside the window); counters are rate-limiter-flexible
 * stores (memory, or Postgres to share them across instances). Monthly allowances (legacy plans) are counted per
 * partner and calendar month in Postgres whatever the store, so they survive restarts. Refused requests do not count.
 */
export function createRateLimiter(options: RateLimiterOptions) {
  const now = options.now ?? (() => new Date());
  const minutes: RateLimiterAbstract =
    options.store === 'postgres'
      ? new RateLimiterPostgres({
          storeClient: requirePool(options),
          storeType: 'pool',
          tableName: 'rate_limits',
          tableCreated: true,
          keyPrefix: 'm',
          points: UNCAPPED,
          duration: (2 * WINDOW_MS) / 1000,
        })
      : new RateLimiterMemory({ keyPrefix: 'm', points: UNCAPPED, duration: (2 * WINDOW_MS) / 1000 });
  // duration 0: monthly rows never expire (they are the request history of the month).
  const months: RateLimiterAbstract = options.pool
    ? new RateLimiterPostgres({
        storeClient: options.pool,
        storeType: 'pool',
        tableName: 'rate_limits',
        tableCreated: true,
        keyPrefix: 'month',
        points: UNCAPPED,
        duration: 0,
      })
    : new RateLimiterMemory({ keyPrefix: 'month', points: UNCAPPED, duration: 0 });

  const monthKey = (partnerId: string, at: Date) => `${partnerId}:${at.toISOString().slice(0, 7)}`;

  return {
    /** Counts one request of the key and decides; a refused request is not counted. */
    async consume(principal: Principal, channel: Channel): Promise<RateDecision> {
      const policy = ratePolicy(principal, channel);
      const at = now();
      const t = at.getTime();
      const index = Math.floor(t / WINDOW_MS);
      const elapsed = (t % WINDOW_MS) / WINDOW_MS;
      let decision: RateDecision = { policy, allowed: true, limit: policy.perMinute, remaining: null, reset: 0 };

      if (policy.perMinute !== null) {
        // Per key and policy: a key used on the legacy family and on v1 has two independent allowances.
        const key = `${principal.keyId}:${policy.name}:${index}`;
        const current = (await minutes.consume(key, 1)).consumedPoints;
        const previous = (await minutes.get(`${principal.keyId}:${policy.name}:${index - 1}`))?.consumedPoints ?? 0;
        const used = previous * (1 - elapsed) + current;
        if (used > policy.perMinute) {
          await minutes.reward(key, 1);
          return refuse(
            policy,
            retryAfterMinute(policy.perMinute, previous, current - 1, elapsed),
            `${policy.perMinute} requests per minute`,
            previous,
            current - 1,
            elapsed,
          );
        }
        decision = { ...decision, remaining: Math.max(0, Math.floor(policy.perMinute - used)), reset: resetSeconds(previous, current, elapsed) };
      }

      if (policy.perMonth !== null) {
        const key = monthKey(principal.partner.id, at);
        const used = (await months.consume(key, 1)).consumedPoints;
        if (used > policy.perMonth) {
          await months.reward(key, 1);
          if (policy.perMinute !== null) await minutes.reward(`${principal.keyId}:${policy.name}:${index}`, 1);
          const nextMonth = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
          return {
            ...decision,
            allowed: false,
            remaining: 0,
            retryAfter: Math.ceil((nextMonth - t) / 1000),
            reason: `${policy.perMonth} requests per month`,
            monthUsed: used - 1,
          };
        }
        decision.monthUsed = used;
      }
      return decision;
    },

    /** Requests the partner made this month (the legacy usage figure); counted whatever the plan. */
    async monthRequests(partnerId: string, at = now()): Promise<number> {
      return (await months.get(monthKey(partnerId, at)))?.consumedPoints ?? 0;
    },
  };

  function refuse(policy: RatePolicy, retryAfter: number, reason: string, previous: number, current: number, elapsed: number): RateDecision {
    return { policy, allowed: false, limit: policy.perMinute, remaining: 0, reset: resetSeconds(previous, current, elapsed), retryAfter, reason };
  }
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;

/**
 * Seconds until one more request fits under `limit`: first while the previous minute's weight fades, else in
 * the next minute while this one's does.
 */
function retryAfterMinute(limit: number, previous: number, current: number, elapsed: number): number {
  const room = limit - 1; // the estimate must fall to this for one more request to fit
  if (current <= room && previous > 0) {
    // previous × (1 − (elapsed + s/60)) + current ≤ room
    const fraction = (previous + current - room) / previous - elapsed;
    return Math.max(1, Math.ceil(fraction * 60));
  }
  // next minute: current × (1 − s'/60) ≤ room, s' counted from its start
  const untilNext = (1 - elapsed) * 60;
  const fraction = current > 0 ? Math.max(0, 1 - room / current) : 0;
  return Math.max(1, Math.ceil(untilNext + fraction * 60));
}

/** Seconds until the requests counted now have left the window. */
function resetSeconds(previous: number, current: number, elapsed: number): number {
  return Math.max(1, Math.ceil((current > 0 ? 2 - elapsed : previous > 0 ? 1 - elapsed : 0) * 60));
}

function requirePool(options: RateLimiterOptions): SqlPool {
  if (!options.pool) throw new Error('RATE_LIMIT_STORE=postgres needs the database pool');
  return options.pool;
}

/** RateLimit-Policy and RateLimit headers (IETF draft 7 syntax), for a limited policy. */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  if (d.limit === null) return {};
  return {
    'ratelimit-policy': `${d.limit};w=60`,
    ratelimit: `limit=${d.limit}, remaining=${d.remaining ?? 0}, reset=${d.reset}`,
  };
}
