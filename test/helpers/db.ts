import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { connect, createPglite, type Database } from '../../src/platform/db/connect.ts';

let template: Blob | undefined;

/** A private, migrated embedded database (a copy of the template built in global setup). */
export async function freshDatabase(options: { onQuery?: (sql: string) => void } = {}): Promise<Database> {
  template ??= new Blob([readFileSync(inject('templateDataDir'))]);
  const pglite = await createPglite({ loadDataDir: template });
  return connect({ pglite, ownsPglite: true, ...options });
}
