import { Migrator, sql, type Migration, type MigrationResultSet } from 'kysely';
import { isPostgres, type Database } from './database.ts';
import { MigrationError } from './migration-error.ts';

/**
 * Brings the schema up to date with Kysely's Migrator. Migrations are given by name (sorted
 * alphabetically, so prefix them with a date or number); failures throw MigrationError, naming the failing one.
 */
export async function migrate(db: Database, migrations: Readonly<Record<string, Migration>>): Promise<MigrationResultSet> {
  // On PostgreSQL the migration tables live in the connection's own schema (its search_path):
  // Kysely, told no schema, takes another schema's kysely_migration tables for its own, then
  // fails to find them through the search_path ("relation kysely_migration_lock does not exist").
  const schema = isPostgres(db) ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({ db, provider: { getMigrations: async () => ({ ...migrations }) }, ...(schema ? { migrationTableSchema: schema } : {}) });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    throw new MigrationError(result.results?.find((r) => r.status === 'Error')?.migrationName ?? null, result.error);
  }
  return result;
}
