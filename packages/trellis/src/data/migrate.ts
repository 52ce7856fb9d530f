import { Migrator, sql, type Migration, type MigrationResultSet } from 'kysely';
import { isPostgres, type Database } from './database.ts';
import { MigrationError } from './migration-error.ts';

/**
 * Brings the schema up to date with Kysely's Migrator. Migrations are given by name (sorted
 * alphabetically, so prefix them with a date or number); failures throw MigrationError, naming the failing one.
 */
export async function migrate(db: Database, migrations: Readonly<Record<string, Migration>>): Promise<MigrationResultSet> {
  const result = await (await migratorFor(db, migrations)).migrateToLatest();
  if (result.error) {
    throw new MigrationError(result.results?.find((r) => r.status === 'Error')?.migrationName ?? null, result.error);
  }
  return result;
}

/**
 * Kysely's Migrator for these migrations, its tables in the connection's own schema on PostgreSQL
 * (its search_path): told no schema, Kysely takes another schema's kysely_migration tables for its
 * own, then fails to find them through the search_path ("relation kysely_migration_lock does not
 * exist"). `migrate()` and the `trellis migrate` commands share it, so they agree on the history.
 */
export async function migratorFor(db: Database, migrations: Readonly<Record<string, Migration>>): Promise<Migrator> {
  let schema: string | undefined;
  if (isPostgres(db)) {
    schema = (await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db)).rows[0]?.schema ?? undefined;
    // A search_path naming no schema that exists: Kysely's own error would blame its lock table.
    if (schema === undefined) throw new MigrationError(null, new Error('the search_path names no schema that exists (DATABASE_URL\'s options, or PGOPTIONS): create the schema first'));
  }
  return new Migrator({ db, provider: { getMigrations: async () => ({ ...migrations }) }, ...(schema ? { migrationTableSchema: schema } : {}) });
}
