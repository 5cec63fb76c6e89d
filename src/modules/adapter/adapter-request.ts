import { createHash } from 'node:crypto';
import { AppError, Conflict, type ErrorCode } from '../../platform/errors.ts';
import type { AdapterRequestRow } from './adapter.queries.ts';
import type { AdapterExtractInput } from './adapter.service.ts';

// Idempotency of adapter requests: what identifies "the same request" under a correlation_id, and what a request
// that waited for another attempt answers.

/** Codes a failed attempt is reported with to the requests that waited for it (anything else: a masked 500). */
const REPLAYABLE: ReadonlySet<ErrorCode> = new Set(['BAD_USER_INPUT', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE', 'UPSTREAM', 'FORBIDDEN', 'CONFLICT']);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The request as the contract names its fields; the hash of it identifies "the same request". */
export function canonicalRequest(input: AdapterExtractInput): { hash: string; fields: Record<string, string> } {
  const values: Record<string, unknown> = {
    source_url: input.sourceUrl ?? null,
    source_uri: input.sourceUri ?? null,
    document_type: input.documentType ?? 'invoice',
    profile: input.profile ?? null,
    tenant_id: input.tenantId ?? null,
  };
  const fields = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, sha256(JSON.stringify(v)).slice(0, 16)]));
  return { hash: sha256(JSON.stringify(values)), fields };
}

export function mismatch(correlationId: string, row: AdapterRequestRow, fields: Record<string, string>): Conflict {
  let before: Record<string, string> = {};
  try {
    before = JSON.parse(row.requestFields) as Record<string, string>;
  } catch {
    // an unreadable row names no fields
  }
  const differing = Object.keys(fields).filter((k) => before[k] !== undefined && before[k] !== fields[k]);
  const which = differing.length ? ` (different ${differing.join(', ')})` : '';
  return new Conflict(`correlation_id "${correlationId}" was already used for a different request${which} in the last 24 hours`);
}

/** The error of the attempt a request waited for. */
export function replayedError(row: AdapterRequestRow): Error {
  const code = row.errorCode as ErrorCode | null;
  if (code && REPLAYABLE.has(code)) return new AppError(code, row.errorMessage ?? 'the request failed');
  return new Error(`the first request with this correlation_id failed: ${row.errorMessage ?? 'internal error'}`);
}
