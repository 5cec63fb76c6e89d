import { type Kysely, sql } from 'kysely';
import type { DB } from '../../platform/db/types.ts';

// A claimed batch's attempts recorded in one statement each step, not two statements per attempt: on the embedded
// database every statement costs ~1–2 ms under load, which capped deliveries at ~400/s.

/** One attempt's outcome, for the delivery claimed with `attempts` attempts made. */
export interface AttemptRecord {
  id: string;
  attempts: number;
  status: 'pending' | 'delivered' | 'failed';
  startedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** For `pending`: when the retry is due. */
  nextAttemptAt?: Date;
  /** For `delivered`. */
  deliveredAt?: Date;
}

/**
 * Locks the webhooks (FOR SHARE, in id order: the lock order every recording transaction takes) and says which
 * are enabled; a webhook deleted meanwhile is absent.
 */
export async function shareLockWebhooks(db: Kysely<DB>, webhookIds: readonly string[]): Promise<Map<string, boolean>> {
  if (webhookIds.length === 0) return new Map();
  const rows = await db.selectFrom('webhooks').select(['id', 'enabled']).where('id', 'in', webhookIds).orderBy('id').forShare().execute();
  return new Map(rows.map((r) => [r.id, r.enabled]));
}

/**
 * Records the attempts: each delivery still at its claimed attempt count moves to its outcome and gets its attempt
 * row, in one statement. Returns the ids recorded; the others moved on meanwhile (deleted, or claimed again by
 * another worker after our lock expired) and are left as they are.
 */
export async function recordAttempts(db: Kysely<DB>, records: readonly AttemptRecord[]): Promise<Set<string>> {
  if (records.length === 0) return new Set();
  const rows = JSON.stringify(
    records.map((r) => ({
      id: r.id,
      attempts: r.attempts,
      status: r.status,
      started_at: r.startedAt.toISOString(),
      status_code: r.statusCode,
      latency_ms: r.latencyMs,
      error: r.error,
      next_attempt_at: r.nextAttemptAt?.toISOString() ?? null,
      delivered_at: r.deliveredAt?.toISOString() ?? null,
    })),
  );
  const res = await sql<{ id: string }>`
    with v as (
      select * from jsonb_to_recordset(${rows}::jsonb) as v(
        id uuid, attempts integer, status text, started_at timestamptz, status_code integer, latency_ms integer,
        error text, next_attempt_at timestamptz, delivered_at timestamptz)
    ),
    moved as (
      update webhook_deliveries d
      set attempts = v.attempts + 1,
        status = v.status,
        locked_until = null,
        last_status = v.status_code,
        last_error = v.error,
        next_attempt_at = coalesce(v.next_attempt_at, d.next_attempt_at),
        delivered_at = coalesce(v.delivered_at, d.delivered_at)
      from v
      where d.id = v.id and d.attempts = v.attempts
      returning d.id
    )
    insert into webhook_attempts (delivery_id, attempt, started_at, status_code, latency_ms, error)
    select v.id, v.attempts + 1, v.started_at, v.status_code, v.latency_ms, v.error
    from v join moved on moved.id = v.id
    returning delivery_id as id`.execute(db);
  return new Set(res.rows.map((r) => r.id));
}
