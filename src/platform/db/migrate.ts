import type { Kysely } from 'kysely';
import { type MigrationResultSet, Migrator } from 'kysely/migration';
import { migrations } from './migrations/index.ts';

function migrator(db: Kysely<any>): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

/** Runs every pending migration (forward only); throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const { error, results }: MigrationResultSet = await migrator(db).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${why}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Names of migrations not applied yet (readiness check). */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const all = await migrator(db).getMigrations();
  return all.filter((m) => !m.executedAt).map((m) => m.name);
}
