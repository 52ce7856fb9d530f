/**
 * The starter's seed, as two replicas of a new project starting at once on one empty PostgreSQL
 * database run it: the tasks are written once, not twice (found by the operator review, beside
 * the bookshop's crash on the same race).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, migrationsIn, openDatabase, type Database } from 'trellis';
import { TEST_POSTGRES_URL, openTestSchema, postgresForTests, type TestDatabase } from 'trellis/testing';
import { seedIfEmpty } from '../template/src/seed.ts';

const pg = await postgresForTests();

describe("the starter's seed from two processes at once", { skip: pg.skip }, () => {
  let first: TestDatabase;
  let second: Database;
  before(async () => {
    first = await openTestSchema('starter_seed_race');
    second = openDatabase(TEST_POSTGRES_URL, { schema: first.schema });
    await migrate(first.db, await migrationsIn(new URL('../template/migrations/', import.meta.url)));
  });
  after(async () => {
    await second?.destroy();
    await first?.close();
  });

  test('three tasks, once', async () => {
    for (let round = 0; round < 3; round++) {
      await first.db.deleteFrom('tasks').execute();
      await Promise.all([seedIfEmpty(first.db), seedIfEmpty(second), seedIfEmpty(first.db)]);
      const { n } = await first.db.selectFrom('tasks').select(first.db.fn.countAll().as('n')).executeTakeFirstOrThrow();
      assert.equal(Number(n), 3);
    }
  });
});
