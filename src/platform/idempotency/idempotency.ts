// Idempotency-Key (Stripe's semantics) for every POST of the REST families and every GraphQL mutation over HTTP:
// the first request with a key runs and its response is kept for 24 hours; a retry with the same key and the same
// request gets that response again (header `Idempotent-Replayed: true`); the same key with another request is 409;
// a retry while the first still runs waits for it, so the work happens once. Keys are per partner. Responses a
// retry could change are not kept: 5xx, 401 and 429 release the key.

import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { Conflict, InvalidInput } from '../errors.ts';
import { UploadedFile } from '../lib/uploaded-file.ts';
import { claimKey, completeKey, dropExpiredKey, findKey, releaseKey } from './idempotency.queries.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';

export interface StoredResponse {
  status: number;
  contentType: string;
  body: string;
}

/** What a request with a key does: run (and then `finish` with its response), or send the kept response. */
export type IdempotentStart = { kind: 'run'; finish(response: StoredResponse): Promise<void> } | { kind: 'replay'; response: StoredResponse };

export interface IdempotencyStore {
  start(partnerId: string, key: string, fingerprint: string): Promise<IdempotentStart>;
}

export interface IdempotencyOptions {
  /** How long a response is kept; default 24 h. */
  ttlMs?: number;
  /** A request still `running` after this long died with its process; its key is free again. Default 10 min. */
  staleMs?: number;
  /** How long a retry waits for the first request to finish before answering 409; default 60 s. */
  waitMs?: number;
}

const MAX_KEY_LENGTH = 255;

/** The key header's value, checked: 1–255 visible ASCII characters; undefined when there is none. */
export function idempotencyKeyOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const raw = headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (Array.isArray(raw) && raw.length > 1) throw InvalidInput.field('Idempotency-Key', 'must be sent once');
  if (!key || key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw InvalidInput.field('Idempotency-Key', `must be 1–${MAX_KEY_LENGTH} visible ASCII characters`);
  }
  return key;
}

/** sha256 of a request in a canonical form: files by their bytes' sha256 (multipart boundaries differ per send). */
export function fingerprint(request: unknown): string {
  const json = JSON.stringify(request, (_key, value: unknown) => {
    if (value instanceof UploadedFile) return { file: createHash('sha256').update(value.bytes).digest('hex'), filename: value.filename };
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return value;
  });
  return createHash('sha256')
    .update(json ?? 'undefined')
    .digest('hex');
}

/** Whether a response is kept for retries: not one a retry could change (server errors, authentication, rate limits). */
export const keepsResponse = (status: number) => status < 500 && status !== 401 && status !== 429;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createIdempotencyStore(db: Kysely<DB>, options: IdempotencyOptions = {}): IdempotencyStore {
  const ttlMs = options.ttlMs ?? 24 * 3600_000;
  const staleMs = options.staleMs ?? 10 * 60_000;
  const waitMs = options.waitMs ?? 60_000;

  return {
    async start(partnerId, key, print) {
      const until = Date.now() + waitMs;
      for (let pause = 25; ; pause = Math.min(pause * 2, 500)) {
        await dropExpiredKey(db, partnerId, key, ttlMs, staleMs);
        if (await claimKey(db, partnerId, key, print)) {
          return {
            kind: 'run',
            finish: (response) => (keepsResponse(response.status) ? completeKey(db, partnerId, key, response) : releaseKey(db, partnerId, key)),
          };
        }
        const row = await findKey(db, partnerId, key);
        if (!row) continue; // released or expired between the two statements: claim again
        if (row.fingerprint !== print) {
          throw new Conflict('this Idempotency-Key was already used with a different request: use a new key for a new request');
        }
        if (row.state === 'done') return { kind: 'replay', response: { status: row.status!, contentType: row.contentType!, body: row.body! } };
        if (Date.now() >= until) throw new Conflict('a request with this Idempotency-Key is still being processed: retry in a moment');
        await sleep(pause);
      }
    },
  };
}
