/**
 * EXPLAIN from the Database panel (issue 16, item 1): a signed link per recorded SELECT shows its
 * plan (SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN in a read-only transaction). Refused:
 * a forged or moved signature, a recorded statement that is not a SELECT (even signed), a query
 * the profile does not have; the gate hides it from other clients as it hides every page.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase, type Database } from '../../src/data/database.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { openTestSchema } from '../../src/testing/test-schema.ts';
import { postgresForTests, TEST_POSTGRES_URL } from '../../src/testing/services.ts';
import { tcpProxy } from '../../src/testing/tcp-proxy.ts';
import { ExplainSigner } from '../../src/profiler/explain/explain-signer.ts';
import { createBookshop } from '../../../../examples/bookshop/src/bookshop.ts';
import { BROWSER } from './profiler-app.ts';

const JWT_SECRET = 'explain-test-secret-0123456789-abcdefghij';
const pg = await postgresForTests();
const backends: { name: string; skip: string | false; open: () => Promise<{ db: Database; close: () => Promise<void> }>; plan: RegExp }[] = [
  { name: 'SQLite', skip: false, open: async () => { const db = openDatabase('sqlite::memory:'); return { db, close: () => db.destroy() }; }, plan: /SEARCH books USING INTEGER PRIMARY KEY \(rowid=\?\)/ },
  { name: 'PostgreSQL', skip: pg.skip, open: () => openTestSchema('explain_test'), plan: /Index Scan using books_pkey on books|Seq Scan on books/ },
];

for (const backend of backends) {
  describe(`EXPLAIN on ${backend.name}`, { skip: backend.skip }, () => {
    test('a signed SELECT is explained; forged, moved and non-SELECT requests are refused', async (t) => {
      const { db, close } = await backend.open();
      t.after(close);
      const app = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:', JWT_SECRET }), database: db, tls: null, seed: { passwordCost: 1024 } });
      t.after(() => app.close());
      const item = await app.inject({ url: '/books/1' });
      await app.profiler!.settled();
      const token = item.headers['x-debug-token'] as string;
      const panel = (await app.inject({ url: `/_profiler/${token}?panel=db`, headers: { accept: BROWSER } })).body;
      const link = /<a class="pf-explain" href="([^"]+)">Explain<\/a>/.exec(panel)?.[1]?.replaceAll('&amp;', '&');
      assert.ok(link, 'the Database panel links each SELECT to its EXPLAIN');
      assert.match(link, new RegExp(`^/_profiler/${token}/explain/1\\?signature=[\\w-]{43}$`));

      const explained = await app.inject({ url: link, headers: { accept: BROWSER } });
      assert.equal(explained.statusCode, 200);
      assert.match(explained.body, /<h2>EXPLAIN of query #1<\/h2>/);
      assert.match(explained.body, backend.plan);
      assert.match(String(explained.headers['content-security-policy']), /default-src 'none'/);

      const forged = await app.inject({ url: `${link.slice(0, -4)}AAAA` });
      assert.equal(forged.statusCode, 403);
      assert.equal(forged.json().detail, 'EXPLAIN refused: this link was not signed by this profiler.');
      const moved = await app.inject({ url: link.replace('/explain/1?', '/explain/2?') });
      assert.ok([400, 403].includes(moved.statusCode), `moved: ${moved.statusCode}`);
      const missing = await app.inject({ url: `/_profiler/${token}/explain/999?signature=x` });
      assert.equal(missing.statusCode, 400);
      assert.equal(missing.json().detail, `EXPLAIN refused for query #999 of profile "${token}": the profile has no such query.`);

      // An INSERT recorded in a profile: no link, and refused even with a valid signature.
      const login = (await app.inject({ method: 'POST', url: '/auth', payload: { email: 'admin@bookshop.test', password: 'admin-password' } })).json() as { token: string };
      const created = await app.inject({ method: 'POST', url: '/authors', headers: { authorization: `Bearer ${login.token}`, 'content-type': 'application/ld+json' }, payload: { name: 'Explain Test' } });
      assert.equal(created.statusCode, 201);
      await app.profiler!.settled();
      const writeToken = created.headers['x-debug-token'] as string;
      const writes = (await app.inject({ url: `/_profiler/${writeToken}.json` })).json() as { collectors: { db: { queries: { sql: string }[] } } };
      const insert = writes.collectors.db.queries.findIndex((q) => /^insert/i.test(q.sql)) + 1;
      assert.ok(insert > 0);
      const writePanel = (await app.inject({ url: `/_profiler/${writeToken}?panel=db`, headers: { accept: BROWSER } })).body;
      assert.equal(writePanel.includes(`/explain/${insert}?`), false, 'no EXPLAIN link for an INSERT');
      const signed = new ExplainSigner(JWT_SECRET).sign(writeToken, insert, writes.collectors.db.queries[insert - 1]!.sql);
      const refused = await app.inject({ url: `/_profiler/${writeToken}/explain/${insert}?signature=${signed}` });
      assert.equal(refused.statusCode, 400);
      assert.equal(refused.json().detail, `EXPLAIN refused for query #${insert} of profile "${writeToken}": only a SELECT is explained.`);
      const count = await db.selectFrom('authors' as never).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      assert.ok(Number((count as { n: number }).n) > 0);

      // Not a profiler client: the page does not exist.
      const outsider = await app.inject({ url: link, remoteAddress: '203.0.113.9' });
      assert.equal(outsider.statusCode, 404);
    });
  });
}

test('EXPLAIN while PostgreSQL is cut is a 503 with Retry-After, and works again once it is back', { skip: pg.skip }, async (t) => {
  const opened = await openTestSchema('explain_cut');
  const proxy = await tcpProxy(TEST_POSTGRES_URL, 5432);
  const db = openDatabase(proxy.url, { schema: opened.schema });
  t.after(async () => {
    await db.destroy();
    await proxy.close();
    await opened.close();
  });
  const app = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:', JWT_SECRET }), database: db, tls: null, seed: { passwordCost: 1024 } });
  t.after(() => app.close());
  const item = await app.inject({ url: '/books/1' });
  await app.profiler!.settled();
  const panel = (await app.inject({ url: `/_profiler/${item.headers['x-debug-token']}?panel=db`, headers: { accept: BROWSER } })).body;
  const link = /class="pf-explain" href="([^"]+)"/.exec(panel)![1]!.replaceAll('&amp;', '&');
  proxy.cut();
  const during = await app.inject({ url: link });
  assert.equal(during.statusCode, 503);
  assert.equal(during.headers['retry-after'], '5');
  await proxy.restore();
  let after = await app.inject({ url: link });
  for (let i = 0; i < 20 && after.statusCode !== 200; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    after = await app.inject({ url: link });
  }
  assert.equal(after.statusCode, 200);
});

for (const backend of backends) {
  test(`${backend.name}: a query on a connection other than the app's database is not explained, even signed`, { skip: backend.skip }, async (t) => {
    const { db, close } = await backend.open();
    t.after(close);
    const app = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:', JWT_SECRET }), database: db, tls: null, seed: { passwordCost: 1024 } });
    t.after(() => app.close());
    // The app's own connection, beside its database: the plan of its query would be another database's.
    const { sql } = await import('kysely');
    let foreignQuery: () => Promise<void>;
    if (backend.name === 'SQLite') {
      const { DatabaseSync } = await import('node:sqlite');
      const own = new DatabaseSync(':memory:');
      own.exec('create table u (id integer primary key)');
      t.after(() => own.close());
      foreignQuery = async () => void own.prepare('select * from u where id = ?').all(1);
    } else {
      const pgModule = (await import('pg')).default;
      const client = new pgModule.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      t.after(() => client.end());
      foreignQuery = async () => void (await client.query('select * from pg_class where oid = $1', [1]));
    }
    app.get('/two-connections', async () => {
      await sql`select id from books where id = ${1}`.execute(db);
      await foreignQuery();
      return { ok: true };
    });
    const res = await app.inject({ url: '/two-connections' });
    assert.equal(res.statusCode, 200, res.body);
    await app.profiler!.settled();
    const token = res.headers['x-debug-token'] as string;
    const queries = ((await app.inject({ url: `/_profiler/${token}.json` })).json() as { collectors: { db: { queries: { sql: string; foreign?: true }[] } } }).collectors.db.queries;
    const own = queries.findIndex((q) => /from books/.test(q.sql)) + 1;
    const foreign = queries.findIndex((q) => /from (u|pg_class)/.test(q.sql)) + 1;
    assert.ok(own > 0 && foreign > 0, queries.map((q) => q.sql).join(' | '));
    assert.equal(queries[foreign - 1]!.foreign, true);
    assert.equal(queries[own - 1]!.foreign, undefined);
    const panel = (await app.inject({ url: `/_profiler/${token}?panel=db`, headers: { accept: BROWSER } })).body;
    assert.ok(panel.includes(`/explain/${own}?`), 'the app\'s query has its link');
    assert.equal(panel.includes(`/explain/${foreign}?`), false, 'the other connection\'s query has none');
    const signed = new ExplainSigner(JWT_SECRET).sign(token, foreign, queries[foreign - 1]!.sql);
    const refused = await app.inject({ url: `/_profiler/${token}/explain/${foreign}?signature=${signed}` });
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.json().detail, `EXPLAIN refused for query #${foreign} of profile "${token}": it ran on a connection other than the app's database.`);
  });
}
