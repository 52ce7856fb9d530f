import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, sql } from 'kysely';
import { openDatabase } from './database.ts';
import { NodeSqliteDialect } from './node-sqlite-dialect.ts';
import { subscribe } from '../observe/channels.ts';

test('queries, RETURNING, booleans and transactions over node:sqlite', async () => {
  const db = openDatabase('sqlite::memory:');
  await db.schema.createTable('t').addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()).addColumn('name', 'text').addColumn('flag', 'boolean').execute();
  const inserted = await db.insertInto('t').values({ name: 'a', flag: true }).returning(['id', 'name', 'flag']).executeTakeFirstOrThrow();
  assert.deepEqual({ ...inserted }, { id: 1, name: 'a', flag: 1 });
  const result = await db.updateTable('t').set({ name: 'b' }).where('id', '=', 1).executeTakeFirst();
  assert.equal(result.numUpdatedRows, 1n);
  await assert.rejects(
    db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ name: 'rolled back' }).execute();
      throw new Error('boom');
    }),
    /boom/,
  );
  const rows = await db.selectFrom('t').select('name').execute();
  assert.deepEqual(rows.map((r) => r.name), ['b']);
  // Concurrent transactions queue for the single connection instead of interleaving.
  await Promise.all([1, 2, 3].map((n) => db.transaction().execute((trx) => trx.insertInto('t').values({ name: `c${n}` }).execute())));
  assert.equal(Number((await db.selectFrom('t').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n), 4);
  await db.destroy();
});

test('LIKE is case-sensitive (the search filter makes insensitivity explicit) and every query is published', async () => {
  const db = openDatabase('sqlite::memory:');
  const seen: string[] = [];
  const off = subscribe('dbQuery', (e) => seen.push(`${e.sql} ${JSON.stringify(e.parameters)}`));
  const { rows } = await sql<{ r: number }>`select ${'Abc'} like ${'a%'} as r`.execute(db);
  off();
  assert.equal(rows[0]!.r, 0);
  assert.deepEqual(seen, ['select ? like ? as r ["Abc","a%"]']);
  await db.destroy();
});

test('an unsupported URL is refused with the accepted forms', () => {
  assert.throws(() => openDatabase('mysql://x'), /Unsupported DATABASE_URL "mysql:\/\/x": expected sqlite:<file>, sqlite::memory: or postgres:\/\/…/);
});

test('a failing query is published with its error; a dialect not asked to publish stays silent', async () => {
  const db = openDatabase('sqlite::memory:');
  const events: { sql: string; error?: string; durationMs: number }[] = [];
  const off = subscribe('dbQuery', (e) => events.push(e));
  await assert.rejects(sql`select * from missing_table`.execute(db), /no such table: missing_table/);
  const quiet = new Kysely<any>({ dialect: new NodeSqliteDialect(new DatabaseSync(':memory:')) });
  await sql`select 1`.execute(quiet);
  off();
  assert.equal(events.length, 1);
  assert.equal(events[0]!.sql, 'select * from missing_table');
  assert.equal(events[0]!.error, 'no such table: missing_table');
  assert.ok(events[0]!.durationMs >= 0);
  await db.destroy();
  await quiet.destroy();
});
