/**
 * Two processes starting at once on an empty PostgreSQL database (two replicas, `npm start` twice):
 * both migrate (Kysely's lock serialises that) and both find the shop empty. The seed must run
 * once, the second start finding the first's data, not crash on "duplicate key value violates
 * unique constraint users_email_key".
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, openDatabase, type Database } from 'trellis';
import { TEST_POSTGRES_URL, openTestSchema, postgresForTests, type TestDatabase } from 'trellis/testing';
import { migrations } from '../migrations/index.ts';
import { seedIfEmpty } from '../src/seed.ts';

const pg = await postgresForTests();

describe('seeding an empty PostgreSQL database from two processes at once', { skip: pg.skip }, () => {
  let first: TestDatabase;
  let second: Database;
  before(async () => {
    first = await openTestSchema('bookshop_seed_race');
    // A pool of its own on the same schema: another process, as far as PostgreSQL can tell.
    second = openDatabase(TEST_POSTGRES_URL, { schema: first.schema });
    await migrate(first.db, migrations);
  });
  after(async () => {
    await second?.destroy();
    await first?.close();
  });

  test('seeds once: one start seeds, the other finds the shop seeded, neither fails', async () => {
    const results = await Promise.allSettled([seedIfEmpty(first.db, { books: 40, passwordCost: 1024 }), seedIfEmpty(second, { books: 40, passwordCost: 1024 })]);
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'fulfilled'], String(results.map((r) => (r.status === 'rejected' ? r.reason : '')).join(' ')));
    assert.deepEqual(results.map((r) => (r as PromiseFulfilledResult<boolean>).value).sort(), [false, true]);
    const count = async (table: string) => Number((await first.db.selectFrom(table).select(first.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    assert.equal(await count('users'), 3);
    assert.equal(await count('books'), 40);
  });
});
