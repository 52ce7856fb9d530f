/**
 * The Database panel (issue 16, item 1, in part): every query a request ran, laid out, with its
 * parameters, duration and statement; identical statements grouped and the N+1 pattern flagged;
 * a secret in a parameter redacted like everywhere else in the profile.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase } from '../../src/data/database.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { createBookshop } from '../../../../examples/bookshop/src/bookshop.ts';
import { BROWSER } from './profiler-app.ts';

test('queries, statements, the N+1 flag and the badge', async () => {
  const database = openDatabase('sqlite::memory:');
  const app = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:' }), database, tls: null, seed: { passwordCost: 1024 } });
  app.get('/n-plus-one', async () => {
    const books = await sql<{ id: number }>`select id from books order by id limit 6`.execute(database);
    for (const book of books.rows) await sql`select title from books where id = ${book.id}`.execute(database);
    await sql`select ${'hunter2-in-a-param'} as secret_echo`.execute(database);
    return { ok: true };
  });
  try {
    const list = await app.inject({ url: '/books?embed=author', headers: { accept: 'application/ld+json' } });
    assert.equal(list.statusCode, 200);
    const loop = await app.inject({ url: '/n-plus-one?password=hunter2-in-a-param' });
    assert.equal(loop.statusCode, 200);
    await app.profiler!.settled();

    const listed = (await app.inject({ url: `/_profiler/${list.headers['x-debug-token']}.json` })).json() as { collectors: { db: { count: number; queries: { formatted: string }[]; statements: { repeated: boolean }[] } } };
    assert.ok(listed.collectors.db.count >= 2, `queries: ${listed.collectors.db.count}`);
    assert.match(listed.collectors.db.queries[0]!.formatted, /^SELECT/);
    assert.equal(listed.collectors.db.statements.some((s) => s.repeated), false, 'the embed is fetched without N+1');

    const profile = (await app.inject({ url: `/_profiler/${loop.headers['x-debug-token']}.json` })).json() as { collectors: { db: { count: number; statements: { sql: string; count: number; repeated: boolean }[]; queries: { parameters: unknown[] }[] } } };
    const db = profile.collectors.db;
    assert.equal(db.count, 8);
    const repeated = db.statements.find((s) => s.repeated);
    assert.equal(repeated?.count, 6);
    assert.match(repeated!.sql, /select title from books where id = \?/);
    assert.equal(JSON.stringify(db.queries).includes('hunter2-in-a-param'), false, 'a secret in a parameter is redacted');

    const page = await app.inject({ url: `/_profiler/${loop.headers['x-debug-token']}?panel=db`, headers: { accept: BROWSER } });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<h2>Database<\/h2>/);
    assert.match(page.body, /The same statement ran 6 times/);
    assert.match(page.body, /<a[^>]*data-panel="db"[^>]*>[\s\S]*?8 in /);
    assert.doesNotMatch(page.body, /hunter2-in-a-param/);
  } finally {
    await app.close();
    await database.destroy();
  }
});
