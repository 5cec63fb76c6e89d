import { InvalidInput } from '../errors.ts';
import { isUuid } from './ids.ts';

// Forward (Relay-style) pagination of newest-first lists. A cursor is the opaque form of the last row's id;
// the query compares (created_at, id) at full precision in SQL, so rows created in the same millisecond are
// neither skipped nor repeated.

export const PAGE = { defaultFirst: 20, maxFirst: 100 } as const;

export interface Connection<T> {
  edges: Array<{ cursor: string; node: T }>;
  nodes: T[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

export function encodeCursor(id: string): string {
  return Buffer.from(`after:${id}`).toString('base64url');
}

/** Validates `first` / `after`; returns how many rows to fetch (one more than a page, to know if more exist). */
export function pageRequest(args: { first?: number | null; after?: string | null }): { first: number; afterId: string | null; fetch: number } {
  const first = args.first ?? PAGE.defaultFirst;
  if (!Number.isInteger(first) || first < 1 || first > PAGE.maxFirst) {
    throw InvalidInput.field('first', `must be an integer from 1 to ${PAGE.maxFirst}`);
  }
  let afterId: string | null = null;
  if (args.after != null) {
    const m = /^after:(.+)$/.exec(Buffer.from(args.after, 'base64url').toString('utf8'));
    if (!m || !isUuid(m[1]!)) throw InvalidInput.field('after', 'is not a cursor returned by this API');
    afterId = m[1]!;
  }
  return { first, afterId, fetch: first + 1 };
}

export function toConnection<T extends { id: string }>(rows: readonly T[], first: number): Connection<T> {
  const nodes = rows.slice(0, first);
  const edges = nodes.map((node) => ({ cursor: encodeCursor(node.id), node }));
  return { edges, nodes, pageInfo: { hasNextPage: rows.length > first, endCursor: edges.at(-1)?.cursor ?? null } };
}
