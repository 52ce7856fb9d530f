/**
 * The Database panel (issue 16, item 1, in part): every query a request ran, laid out, with its
 * parameters, duration and statement; identical statements grouped and the N+1 pattern flagged;
 * a secret in a parameter redacted like everywhere else in the profile.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { Type } from '@sinclair/typebox';
import { createApp } from '../../src/app/create-app.ts';
import { defineResource } from '../../src/resources/define-resource.ts';
import { openDatabase } from '../../src/data/database.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { createBookshop } from '../../../../examples/bookshop/src/bookshop.ts';
import { BROWSER } from './profiler-app.ts';
import { withoutSecretStart } from '../../src/profiler/without-secret-start.ts';
import { MAX_PARAMETER_CHARS } from '../../src/profiler/recorded-query.ts';

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
    // node:sqlite says how many rows each query returned.
    assert.deepEqual((db.queries as unknown as { rows: number | null }[]).slice(0, 2).map((q) => q.rows), [6, 1]);
    assert.match(repeated!.sql, /select title from books where id = \?/);
    assert.equal(JSON.stringify(db.queries).includes('hunter2-in-a-param'), false, 'a secret in a parameter is redacted');
    // The runnable copy has the parameters written in, the secret still redacted.
    const runnable = (db.queries as unknown as { runnable: string }[]).map((q) => q.runnable);
    assert.ok(runnable.includes('select title from books where id = 1'), runnable.join(' | '));
    assert.ok(runnable.includes("select '[redacted]' as secret_echo"), runnable.join(' | '));

    const page = await app.inject({ url: `/_profiler/${loop.headers['x-debug-token']}?panel=db`, headers: { accept: BROWSER } });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<h2>Database<\/h2>/);
    assert.match(page.body, /The same statement ran 6 times/);
    assert.match(page.body, /<a[^>]*data-panel="db"[^>]*>[\s\S]*?8 in /);
    assert.doesNotMatch(page.body, /hunter2-in-a-param/);
    assert.match(page.body, /<details class="pf-runnable"><summary>Runnable query<\/summary><pre class="pf-sql">select title from books where id = 1<\/pre><\/details>/);
  } finally {
    await app.close();
    await database.destroy();
  }
});

test('a long parameter is kept as its beginning and its length, a secret cut in two included', async () => {
  const database = openDatabase('sqlite::memory:');
  const app = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:' }), database, tls: null, seed: { passwordCost: 1024 } });
  const secret = 'straddling-secret-value';
  // The secret starts 10 characters before the cut: only its first 10 characters would be kept.
  const long = `${'x'.repeat(MAX_PARAMETER_CHARS - 10)}${secret}${'y'.repeat(900 * 1024)}`;
  app.get('/long-param', async () => {
    await sql`select length(${long}) as n, length(${Buffer.alloc(5000)}) as b`.execute(database);
    return { ok: true };
  });
  try {
    const res = await app.inject({ url: `/long-param?password=${secret}` });
    assert.equal(res.statusCode, 200);
    await app.profiler!.settled();
    const profile = (await app.inject({ url: `/_profiler/${res.headers['x-debug-token']}.json` })).json() as { collectors: { db: { queries: { parameters: unknown[] }[] } } };
    const [cut, binary] = profile.collectors.db.queries[0]!.parameters as [{ cut: string; length: number }, { binary: number }];
    assert.equal(cut.length, long.length);
    assert.equal(cut.cut, `${'x'.repeat(MAX_PARAMETER_CHARS - 10)}[redacted]`);
    assert.deepEqual(binary, { binary: 5000 });
    const stored = JSON.stringify(profile);
    assert.equal(stored.includes(secret.slice(0, 10)), false, 'no piece of the secret is kept');
    assert.ok(stored.length < 64 * 1024, `the profile holds the beginning only (${stored.length} characters)`);

    const page = await app.inject({ url: `/_profiler/${res.headers['x-debug-token']}?panel=db`, headers: { accept: BROWSER } });
    assert.match(page.body, new RegExp(`\\(${long.length.toLocaleString("en-US")} characters\\)`));
    assert.match(page.body, /&lt;binary, 5,000 bytes&gt;/);
  } finally {
    await app.close();
    await database.destroy();
  }
});

test('withoutSecretStart drops an ending that begins a secret, and nothing else', () => {
  assert.equal(withoutSecretStart('abc-hunt', ['hunter2']), 'abc-[redacted]');
  assert.equal(withoutSecretStart('abc-h', ['hunter2']), 'abc-[redacted]');
  assert.equal(withoutSecretStart('abc-xyz', ['hunter2']), 'abc-xyz');
  assert.equal(withoutSecretStart('', ['hunter2']), '');
});

test('N+1: a naive provider running one query per item is flagged, with where it ran from; the bookshop pages are not', async () => {
  const database = openDatabase('sqlite::memory:');
  const shop = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:' }), database, tls: null, seed: { passwordCost: 1024 } });
  await shop.close();
  // A collection whose provider loads each item on its own: the textbook N+1.
  const Title = defineResource({
    name: 'Title',
    path: '/titles',
    table: 'books',
    schema: Type.Object({ id: Type.Readonly(Type.Integer()), title: Type.String() }),
    operations: {
      getCollection: {
        provider: async (_operation, { db }) => {
          const ids = await sql<{ id: number }>`select id from books order by id limit 8`.execute(db);
          const items = [];
          for (const row of ids.rows) items.push((await sql<{ id: number; title: string }>`select id, title from books where id = ${row.id}`.execute(db)).rows[0]!);
          return { items, totalItems: items.length };
        },
      },
    },
  });
  const app = await createApp({ config: testConfig({ PROFILER_DSN: 'memory:' }), resources: [Title], database, tls: null });
  try {
    const res = await app.inject({ url: '/titles', headers: { accept: 'application/json' } });
    assert.equal(res.statusCode, 200, res.body);
    await app.profiler!.settled();
    const db = ((await app.inject({ url: `/_profiler/${res.headers['x-debug-token']}.json` })).json() as { collectors: { db: { statements: { sql: string; count: number; repeated: boolean; origin: string | null }[] } } }).collectors.db;
    const flagged = db.statements.filter((s) => s.repeated);
    assert.equal(flagged.length, 1);
    assert.equal(flagged[0]!.count, 8);
    assert.match(flagged[0]!.origin ?? '', /^packages\/trellis\/test\/profiler\/db-panel\.test\.ts:\d+$/, `origin: ${flagged[0]!.origin}`);
    const page = await app.inject({ url: `/_profiler/${res.headers['x-debug-token']}?panel=db`, headers: { accept: BROWSER } });
    assert.match(page.body, /The same statement ran 8 times[\s\S]*? from <code class="pf-origin">packages\/trellis\/test\/profiler\/db-panel\.test\.ts:\d+<\/code>/);
  } finally {
    await app.close();
  }
  // The bookshop's own collection pages, embeds included, run no statement five times.
  const again = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:' }), database, tls: null, seed: false });
  try {
    for (const url of ['/books', '/books?embed=author&order[title]=asc', '/reviews?embed=author', '/reviews?embed=book&page=2', '/authors']) {
      const res = await again.inject({ url, headers: { accept: 'application/ld+json' } });
      assert.equal(res.statusCode, 200, url);
      await again.profiler!.settled();
      const db = ((await again.inject({ url: `/_profiler/${res.headers['x-debug-token']}.json` })).json() as { collectors: { db: { statements: { repeated: boolean; sql: string }[] } } }).collectors.db;
      assert.deepEqual(db.statements.filter((s) => s.repeated).map((s) => s.sql), [], url);
    }
  } finally {
    await again.close();
    await database.destroy();
  }
});

test("the app's own node:sqlite queries (outside Kysely) are recorded with their rows; the framework's are not recorded twice, the profiler's own never", async () => {
  const { DatabaseSync } = await import('node:sqlite');
  const database = openDatabase('sqlite::memory:');
  const own = new DatabaseSync(':memory:');
  const app = await createApp({ config: testConfig({ PROFILER_DSN: 'sqlite::memory:' }), database, tls: null });
  own.exec('create table notes (n integer)');
  app.get('/raw', async () => {
    own.exec('insert into notes values (1), (2), (3)');
    const all = own.prepare('select n from notes where n >= ?').all(2);
    const one = own.prepare('select n from notes where n = ?').get(9);
    const changed = own.prepare('update notes set n = n + 10 where n < ?').run(3);
    assert.throws(() => own.prepare('select n from notes').all(1, 2, 3));
    await sql`select 1 as one`.execute(database);
    return { all: all.length, one: one ?? null, changed: Number(changed.changes) };
  });
  try {
    const res = await app.inject({ url: '/raw' });
    assert.deepEqual(res.json(), { all: 2, one: null, changed: 2 });
    await app.profiler!.settled();
    const db = ((await app.inject({ url: `/_profiler/${res.headers['x-debug-token']}.json` })).json() as { collectors: { db: { failed: number; queries: { sql: string; rows?: number | null; parameters: unknown[] }[] } } }).collectors.db;
    assert.deepEqual(
      db.queries.map((q) => [q.sql, q.rows ?? null]),
      [
        ['insert into notes values (1), (2), (3)', null],
        ['select n from notes where n >= ?', 2],
        ['select n from notes where n = ?', 0],
        ['update notes set n = n + 10 where n < ?', 2],
        ['select n from notes', null],
        ['select 1 as one', 1],
      ],
    );
    assert.deepEqual(db.queries[1]!.parameters, [2]);
    assert.equal(db.failed, 1);
  } finally {
    await app.close();
    own.close();
    await database.destroy();
  }
});

test('the API key\'s lookup hash is redacted from the queries like the key itself', async () => {
  const { createHash } = await import('node:crypto');
  const database = openDatabase('sqlite::memory:');
  const app = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:' }), database, tls: null, seed: { passwordCost: 1024 } });
  try {
    const key = 'weakkey123';
    const res = await app.inject({ url: '/books/1', headers: { 'x-api-key': key, accept: 'application/ld+json' } });
    assert.equal(res.statusCode, 401);
    await app.profiler!.settled();
    const hash = createHash('sha256').update(key).digest('hex');
    for (const suffix of ['.json', '.har', '?panel=db']) {
      const page = await app.inject({ url: `/_profiler/${res.headers['x-debug-token']}${suffix}`, headers: { accept: BROWSER } });
      assert.equal(page.statusCode, 200, suffix);
      assert.equal(page.body.includes(hash), false, `${suffix}: the key's hash is shown`);
      assert.equal(page.body.includes(key), false, `${suffix}: the key is shown`);
    }
    const db = ((await app.inject({ url: `/_profiler/${res.headers['x-debug-token']}.json` })).json() as { collectors: { db: { queries: { sql: string; parameters: unknown[] }[] } } }).collectors.db;
    const lookup = db.queries.find((q) => q.sql.includes('api_key_hash'));
    assert.deepEqual(lookup?.parameters, ['[redacted]']);
  } finally {
    await app.close();
  }
});
