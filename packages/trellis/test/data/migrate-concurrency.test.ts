/**
 * `trellis migrate` run by many processes at once on PostgreSQL (issue 18, item 3): each migration
 * runs once. Kysely's Migrator takes a PostgreSQL advisory lock for the run; this test holds it to
 * that: six connections pools migrate the same schema concurrently, each migration inserts a row,
 * and every row is there exactly once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely, type Migration } from 'kysely';
import { migrate } from '../../src/data/migrate.ts';
import { openDatabase } from '../../src/data/database.ts';
import { postgresForTests, TEST_POSTGRES_URL } from '../../src/testing/services.ts';
import { openTestSchema } from '../../src/testing/test-schema.ts';

const pg = await postgresForTests();

test('six concurrent migrators on one PostgreSQL schema run each migration once', { skip: pg.skip }, async (t) => {
  const opened = await openTestSchema('migrate_lock');
  t.after(() => opened.close());
  const migrations: Record<string, Migration> = {
    '001-runs': { up: async (db: Kysely<any>) => void (await db.schema.createTable('runs').addColumn('name', 'text').execute()) },
    '002-first': { up: async (db: Kysely<any>) => void (await db.insertInto('runs').values({ name: '002' }).execute()) },
    '003-slow': {
      up: async (db: Kysely<any>) => {
        await sql`select pg_sleep(0.2)`.execute(db);
        await db.insertInto('runs').values({ name: '003' }).execute();
      },
    },
  };
  const handles = Array.from({ length: 6 }, () => openDatabase(TEST_POSTGRES_URL, { schema: opened.schema }));
  t.after(() => Promise.all(handles.map((h) => h.destroy())));
  const results = await Promise.all(handles.map((db) => migrate(db, migrations)));
  const applied = results.flatMap((r) => (r.results ?? []).filter((m) => m.status === 'Success').map((m) => m.migrationName)).sort();
  assert.deepEqual(applied, ['001-runs', '002-first', '003-slow'], 'each migration applied by exactly one of them');
  const { rows } = await sql<{ name: string }>`select name from runs order by name`.execute(opened.db);
  assert.deepEqual(rows.map((r) => r.name), ['002', '003']);
});
