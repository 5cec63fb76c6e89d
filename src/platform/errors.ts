// Typed application errors. The domain throws these; GraphQL maps `code` to extensions.code and
// rest-compat/errors.ts maps it to an HTTP status and body. Messages are safe to show to partners.
export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'UPSTREAM'
  | 'QUERY_TOO_COMPLEX'
  | 'DEADLINE_EXCEEDED'
  | 'INTERNAL_SERVER_ERROR';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidInput extends AppError {
  /** `fields` names each offending input field with its problem, e.g. `{ limit: 'must be at most 200' }`. */
  constructor(
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super('BAD_USER_INPUT', message, { fields });
  }
  static field(field: string, problem: string): InvalidInput {
    return new InvalidInput(`${field} ${problem}`, { [field]: problem });
  }
}

export class Unauthenticated extends AppError {
  constructor(message = 'missing or invalid API key') {
    super('UNAUTHENTICATED', message);
  }
}

export class Forbidden extends AppError {
  constructor(message: string) {
    super('FORBIDDEN', message);
  }
}

export class NotFound extends AppError {
  constructor(what: string) {
    super('NOT_FOUND', `${what} not found`);
  }
}

export class Conflict extends AppError {
  constructor(message: string) {
    super('CONFLICT', message);
  }
}

export class PayloadTooLarge extends AppError {
  constructor(message: string) {
    super('PAYLOAD_TOO_LARGE', message);
  }
}

export class RateLimited extends AppError {
  constructor(
    readonly retryAfter: number,
    message = 'rate limit exceeded',
  ) {
    super('RATE_LIMITED', message, { retryAfter });
  }

  /** A refusal of the rate limiter, naming the limit and the wait. */
  static of(decision: { retryAfter?: number; reason?: string; policy: { name: string } }): RateLimited {
    const retryAfter = decision.retryAfter ?? 1;
    return new RateLimited(retryAfter, `rate limit exceeded: ${decision.reason} (${decision.policy.name}); retry after ${retryAfter} s`);
  }
}

/** The request ran past its execution deadline and was stopped (src/graphql/deadline.ts). */
export class DeadlineExceeded extends AppError {
  constructor(ms: number) {
    super('DEADLINE_EXCEEDED', `the request ran longer than ${ms / 1000} s and was stopped: ask for less (fewer items, fewer nested lists)`);
  }
}

export class Upstream extends AppError {
  constructor(message: string) {
    super('UPSTREAM', message);
  }
}

/** Postgres errors with a known meaning become AppErrors; the constraint name says which input was at fault. */
export function translateDbError(err: unknown, constraints: Record<string, AppError> = {}): unknown {
  const e = err as { code?: string; constraint?: string };
  if (typeof e?.code !== 'string') return err;
  if (e.constraint && constraints[e.constraint]) return constraints[e.constraint];
  if (e.code === '23505') return new Conflict('a record with these values already exists');
  if (e.code === '22001') return new InvalidInput('a value is too long');
  if (e.code === '22P02') return new InvalidInput('a value has the wrong format');
  return err;
}
