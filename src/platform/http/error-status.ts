import type { ErrorCode } from '../errors.ts';

/**
 * THE error table: error code → HTTP status, for every surface that answers over HTTP — the REST families (v1 and
 * the adapter; legacy where its contract differs), GraphQL requests refused before execution, the pages and the
 * admin endpoint. GraphQL execution errors carry the code itself in `extensions.code`.
 */
const STATUS: Record<ErrorCode, { default: number; legacy?: number }> = {
  BAD_USER_INPUT: { default: 400 },
  UNAUTHENTICATED: { default: 401 },
  FORBIDDEN: { default: 403 },
  NOT_FOUND: { default: 404 },
  CONFLICT: { default: 409 },
  // v1 documents 400/401/429 for uploads, so an oversized file is a validation failure there; legacy (and a
  // GraphQL multipart request) say 413.
  PAYLOAD_TOO_LARGE: { default: 400, legacy: 413 },
  RATE_LIMITED: { default: 429 },
  UPSTREAM: { default: 502, legacy: 500 },
  QUERY_TOO_COMPLEX: { default: 400 },
  DEADLINE_EXCEEDED: { default: 503 },
  INTERNAL_SERVER_ERROR: { default: 500 },
};

/** The HTTP status of an error code; `legacy` selects the legacy REST family's column (also the upload-size 413). */
export function httpStatus(code: ErrorCode, column: 'default' | 'legacy' = 'default'): number {
  const row = STATUS[code];
  return column === 'legacy' ? (row.legacy ?? row.default) : row.default;
}
