/**
 * Two apps migrating their own schemas of one PostgreSQL database (each told its schema by the
 * search_path): the second must not take the first one's kysely_migration tables for its own.
 * Found when a bookshop migrated into `public` made every later test schema fail to migrate,
 * with "relation kysely_migration_lock does not exist".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely, type Migration } from 'kysely';
import { migrate } from '../../src/data/migrate.ts';
import { postgresForTests } from '../../src/testing/services.ts';
import { openTestSchema } from '../../src/testing/test-schema.ts';

const pg = await postgresForTests();

const migrations: Record<string, Migration> = {
  '001-notes': { up: async (db: Kysely<any>) => void (await db.schema.createTable('notes').addColumn('text', 'text').execute()) },
};

test('each schema keeps its own migration history', { skip: pg.skip }, async (t) => {
  const first = await openTestSchema('migrate_first');
  t.after(() => first.close());
  const second = await openTestSchema('migrate_second');
  t.after(() => second.close());
  assert.deepEqual((await migrate(first.db, migrations)).results?.map((r) => r.status), ['Success']);
  assert.deepEqual((await migrate(second.db, migrations)).results?.map((r) => r.status), ['Success']);
  assert.deepEqual((await migrate(second.db, migrations)).results, []);
  for (const opened of [first, second]) {
    const tables = await sql<{ table_name: string }>`select table_name from information_schema.tables where table_schema = ${opened.schema} order by table_name`.execute(opened.db);
    assert.deepEqual(tables.rows.map((r) => r.table_name), ['kysely_migration', 'kysely_migration_lock', 'notes']);
  }
});
