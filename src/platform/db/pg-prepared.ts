import type pg from 'pg';
import { PreparedNames, STALE_PLAN, STATEMENT_GONE } from './prepared-names.ts';

// Prepared statements on PostgreSQL (DATABASE_URL), as the embedded driver keeps them (pglite-protocol.ts): a
// statement with parameters is sent under a name, so node-postgres parses it once per connection and afterwards only
// binds and executes it, and PostgreSQL parses, analyses and (once its generic plan is no costlier) plans it once
// instead of on every run. Each connection keeps at most `max`, the least recently used deallocated the next time
// the connection is checked out of the pool (never inside a transaction, where a failing DEALLOCATE would abort it).
// Names are never reused within a process (a name node-postgres still remembers always means the same text, and
// several connections to one backend — pglite-socket in tests — never collide).

/** A prefix no other client of the database gives its statements (the embedded driver's is `partner_api_s`). */
const NAME_PREFIX = 'partner_api_p';
let named = 0;

/** The statements one connection has prepared (prepared-names.ts), and whether it is in a transaction. */
export class ConnectionStatements {
  private readonly names: PreparedNames;
  private transaction = false;

  constructor(private readonly max: number) {
    this.names = new PreparedNames(max);
  }

  /**
   * The name to send `sql` under, and whether it was sent under that name before; undefined when statements are not
   * prepared (`max` 0) or the statement has no parameters (DDL, scripts: run once, or not allowed prepared).
   */
  nameFor(sql: string, parameters: number): { name: string; known: boolean } | undefined {
    this.track(sql);
    if (this.max === 0 || parameters === 0) return undefined;
    const known = this.names.use(sql);
    if (known !== undefined) return { name: known, known: true };
    const name = `${NAME_PREFIX}${++named}`;
    this.names.add(sql, name);
    return { name, known: false };
  }

  /**
   * A run of `sql` under its name failed with `code`: a statement that is gone or stale is forgotten (sent under a new
   * name next time; a stale one still exists and is deallocated). True when it may be run again at once: outside a
   * transaction a failed statement left no trace.
   */
  failed(sql: string, code: string | undefined): boolean {
    if (code !== STATEMENT_GONE && code !== STALE_PLAN) return false;
    this.names.forget(sql, code === STALE_PLAN);
    return !this.transaction;
  }

  /** Names to deallocate now that the connection is out of any transaction (checked out of the pool). */
  takeClosing(): string[] {
    return this.names.takeClosing();
  }

  // Kysely's PostgreSQL driver opens and ends its transactions with these statements (savepoints nest inside one).
  private track(sql: string): void {
    if (sql === 'begin' || sql.startsWith('start transaction')) this.transaction = true;
    else if (sql === 'commit' || sql === 'rollback') this.transaction = false;
  }
}

/**
 * Deallocates what `statements` evicted, on a connection just checked out of the pool. node-postgres remembers the
 * statements a connection parsed in a map of its own, which would otherwise keep every evicted text for the
 * connection's life: the entry is dropped too.
 */
export async function deallocateEvicted(client: pg.PoolClient, statements: ConnectionStatements): Promise<void> {
  for (const name of statements.takeClosing()) {
    forgetParsed(client, name);
    // One statement each: in a script, one that fails (never parsed: its Parse had failed) would skip the rest.
    await client.query(`deallocate "${name}"`).catch(() => undefined);
  }
}

/** Drops `name` from node-postgres' record of the statements the connection parsed (see deallocateEvicted). */
export function forgetParsed(client: pg.PoolClient, name: string): void {
  const parsed = (client as unknown as { connection?: { parsedStatements?: Record<string, string> } }).connection?.parsedStatements;
  if (parsed) delete parsed[name];
}
