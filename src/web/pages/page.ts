import type { Principal } from '../../platform/auth/authenticate.ts';
import type { SessionView } from '../../modules/embed/provisioning.service.ts';

/** What a page handler gets: the signed-in user, their scope, the URL's values and a GraphQL runner. */
export interface PageContext {
  view: SessionView;
  principal: Principal;
  /** The store a store-scoped role is confined to; null: every store of the tenant. */
  storeId: string | null;
  query: Record<string, string | undefined>;
  params: Record<string, string>;
  /** Runs a GraphQL operation as the session (PageError for bad input, not found, forbidden). */
  gql<T>(query: string, variables?: Record<string, unknown>): Promise<T>;
  now: Date;
}

export interface PageContent {
  title: string;
  body: string;
  scripts?: string[];
  /** Sent as is (a piece of a page the browser swaps in), without the frame. */
  fragment?: boolean;
  /** A file to download (the body is CSV text), sent as an attachment with this name. */
  download?: { filename: string };
}

export type PageHandler = (ctx: PageContext) => Promise<PageContent>;

/** The first value of a query-string parameter, trimmed ('' → undefined). */
export function param(query: Record<string, unknown>, name: string): string | undefined {
  const raw = query[name];
  const value = (Array.isArray(raw) ? raw[0] : raw) as unknown;
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}
