/** Statements kept prepared per connection unless configured otherwise (the embedded engine's one connection too). */
export const DEFAULT_PREPARED = 200;
/** The prepared statement no longer exists (DISCARD/DEALLOCATE, by a pooler or a session's own statement). */
export const STATEMENT_GONE = '26000';
/** "cached plan must not change result type": the statement's result columns changed (DDL) since it was prepared. */
export const STALE_PLAN = '0A000';

/**
 * The named statements prepared on one connection, by SQL text, least recently used first, and the names evicted or
 * forgotten that still exist on the server and wait to be closed — by the embedded driver (pglite-protocol.ts: Close
 * messages with its next request) and by the `pg` path (pg-prepared.ts: DEALLOCATE at the next checkout). Protocol-level
 * statements outlive transactions, so a rollback does not invalidate them.
 */
export class PreparedNames {
  private readonly names = new Map<string, string>();
  private closing: string[] = [];

  constructor(private readonly max: number) {}

  /** The statement's name if it is prepared (and now the most recently used). */
  use(sql: string): string | undefined {
    const name = this.names.get(sql);
    if (name !== undefined) {
      this.names.delete(sql);
      this.names.set(sql, name);
    }
    return name;
  }

  /** The statement is prepared under `name`; the least recently used beyond the bound wait to be closed. */
  add(sql: string, name: string): void {
    this.names.set(sql, name);
    for (const [oldSql, oldName] of this.names) {
      if (this.names.size <= this.max) break;
      this.names.delete(oldSql);
      this.closing.push(oldName);
    }
  }

  /** Forgets a statement; `close`: it still exists on the server and waits to be closed. */
  forget(sql: string, close: boolean): void {
    const name = this.names.get(sql);
    this.names.delete(sql);
    if (close && name !== undefined) this.closing.push(name);
  }

  /** The names waiting to be closed since the last call. */
  takeClosing(): string[] {
    const names = this.closing;
    this.closing = [];
    return names;
  }
}
