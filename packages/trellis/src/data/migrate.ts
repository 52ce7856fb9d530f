import { Migrator, type Migration, type MigrationResultSet } from 'kysely';
import type { Database } from './database.ts';

/**
 * Brings the schema up to date with Kysely's Migrator. Migrations are given by name (sorted
 * alphabetically, so prefix them with a date or number); failures throw with the failing name.
 */
export async function migrate(db: Database, migrations: Readonly<Record<string, Migration>>): Promise<MigrationResultSet> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => ({ ...migrations }) } });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration "${failed}" failed: ${(result.error as Error).message ?? result.error}`, { cause: result.error });
  }
  return result;
}
