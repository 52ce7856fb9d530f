import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { openDatabase, type Database, type OpenDatabaseOptions } from '../data/database.ts';
import { TEST_POSTGRES_URL } from './services.ts';

export interface TestDatabase {
  readonly db: Database;
  /** The schema's name (for a process told of it by `PGOPTIONS=-c search_path=…`). */
  readonly schema: string;
  /** Closes the connection and drops the schema with everything in it. */
  close(): Promise<void>;
}

/**
 * A PostgreSQL database handle confined to a fresh schema (`<prefix>_<random>`), so test files
 * running in parallel on the same server never see each other's tables.
 */
export async function openTestSchema(prefix: string, url: string = TEST_POSTGRES_URL, options: Omit<OpenDatabaseOptions, 'schema'> = {}): Promise<TestDatabase> {
  const schema = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = openDatabase(url);
  await sql`create schema ${sql.id(schema)}`.execute(admin);
  const db = openDatabase(url, { ...options, schema });
  return {
    db,
    schema,
    async close() {
      await db.destroy();
      await sql`drop schema ${sql.id(schema)} cascade`.execute(admin);
      await admin.destroy();
    },
  };
}
