/**
 * PostgreSQL going away under the bookshop (issue 14, item 1): a TCP proxy stands between the app
 * and the shared server and is cut mid-run. The process stays up, requests that need the
 * database answer 503 with Retry-After in the negotiated format, the others keep answering, a
 * few log lines cover the whole outage, and service resumes when the proxy is restored.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger } from 'trellis';
import { openTestSchema, postgresForTests, tcpProxy, testConfig, TEST_POSTGRES_URL } from 'trellis/testing';
import { createBookshop } from '../src/bookshop.ts';
import { ADMIN } from './backends.ts';

const pg = await postgresForTests();

describe('PostgreSQL outage', { skip: pg.skip }, () => {
  test('cut for a while under traffic: 503 + Retry-After, no crash, then 200 without a restart', async () => {
    const proxy = await tcpProxy(TEST_POSTGRES_URL, 5432);
    const shop = await openTestSchema('bookshop_outage', proxy.url);
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', captureRequestRecords: false, destination: new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }) });
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    // Created inside the try: a bookshop that fails to start must not leave the proxy and the
    // schema open, which kept the test process alive (no timeout in CI) after the failure.
    let app: Awaited<ReturnType<typeof createBookshop>> | null = null;
    try {
      app = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:', LOG_LEVEL: 'info' }), database: shop.db, tls: null, logger, seed: { passwordCost: 1024 } });
      const shopApp = app;
      const get = (url: string, accept = 'application/ld+json') => shopApp.inject({ url, headers: { accept } });
      assert.equal((await get('/books/1')).statusCode, 200);
      // Pooled connections are open and idle: cutting now drops them under the pool.
      proxy.cut();
      await new Promise((r) => setTimeout(r, 200));

      const during = await Promise.all([get('/books/1'), get('/books?page=1'), get('/reviews'), get('/authors/1')]);
      for (const r of during) {
        assert.equal(r.statusCode, 503, r.body.slice(0, 200));
        assert.equal(r.headers['retry-after'], '5');
        assert.match(r.headers['content-type'] as string, /^application\/(ld\+json|problem\+json)/);
        const body = r.json() as Record<string, unknown>;
        assert.equal(body.detail ?? body.description, 'The database is unavailable; please try again shortly.');
      }
      const hal = await get('/books/1', 'application/hal+json');
      assert.equal(hal.statusCode, 503);
      assert.match(hal.body, /The database is unavailable; please try again shortly\./);
      // A write and a login (the user lookup needs the database) are 503 too, never 500.
      const write = await shopApp.inject({ method: 'PATCH', url: '/books/1', headers: { authorization: ADMIN, 'content-type': 'application/merge-patch+json' }, payload: '{"price": 9}' });
      assert.equal(write.statusCode, 503);
      // What does not need the database keeps answering.
      assert.equal((await get('/docs.jsonld')).statusCode, 200);
      assert.equal((await get('/')).statusCode, 200);
      for (let i = 0; i < 30; i++) assert.equal((await get(`/books/${1 + (i % 5)}`)).statusCode, 503);

      await proxy.restore();
      let back = 0;
      for (let i = 0; i < 50 && back === 0; i++) {
        if ((await get('/books/1')).statusCode === 200) back++;
        else await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(back, 1, 'service resumed without a restart');
      assert.equal((await shopApp.inject({ method: 'PATCH', url: '/books/1', headers: { authorization: ADMIN, 'content-type': 'application/merge-patch+json' }, payload: '{"price": 9}' })).statusCode, 200);

      assert.deepEqual(uncaught, []);
      const outageLines = lines.filter((l) => /Database (unavailable|connection lost)/.test(l));
      assert.ok(outageLines.length >= 1 && outageLines.length <= 4, `a few lines for the whole outage, got ${outageLines.length}:\n${outageLines.join('')}`);
      assert.equal(lines.some((l) => /"level":50/.test(l) && /database/i.test(l)), false, 'no error-level stack per request');
    } finally {
      process.off('uncaughtException', onUncaught);
      await app?.close();
      await proxy.restore().catch(() => {});
      await shop.close();
      await proxy.close();
    }
  });
});

describe('PostgreSQL partitioned away (nothing closes, nothing answers)', { skip: pg.skip }, () => {
  test('503 with Retry-After once DATABASE_QUERY_TIMEOUT passes, never a hang; the stuck connections are dropped; 200 when it heals', { timeout: 60_000 }, async () => {
    const proxy = await tcpProxy(TEST_POSTGRES_URL, 5432);
    const shop = await openTestSchema('bookshop_partition', proxy.url, { queryTimeoutMs: 1000, connectTimeoutMs: 1000 });
    let app: Awaited<ReturnType<typeof createBookshop>> | null = null;
    try {
      app = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:' }), database: shop.db, tls: null, seed: { passwordCost: 1024 } });
      const shopApp = app;
      const get = (url: string) => shopApp.inject({ url, headers: { accept: 'application/ld+json' } });
      // Several pooled connections open and idle, then silent: a query on one gets no answer.
      assert.deepEqual((await Promise.all([get('/books/1'), get('/books/2'), get('/authors/1')])).map((r) => r.statusCode), [200, 200, 200]);
      proxy.stall();
      for (let round = 0; round < 3; round++) {
        const during = await Promise.all([get('/books/1'), get('/books/2'), get('/authors/1'), get('/reviews')]);
        for (const r of during) {
          assert.equal(r.statusCode, 503, r.body.slice(0, 200));
          assert.equal(r.headers['retry-after'], '5');
          assert.equal(r.json().detail, 'The database is unavailable; please try again shortly.');
        }
      }
      assert.equal((await get('/')).statusCode, 200, 'what needs no database answers');
      await proxy.restore();
      let back = false;
      for (let i = 0; i < 50 && !back; i++) {
        back = (await get('/books/1')).statusCode === 200;
        if (!back) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(back, 'service resumed without a restart');
    } finally {
      await app?.close();
      await proxy.restore().catch(() => {});
      await shop.close();
      await proxy.close();
    }
  });
});

describe('PostgreSQL outage under load, as a process', { skip: pg.skip }, () => {
  test('cut mid-load: the process stays up, 503 with Retry-After during, 200 after, a few log lines', async () => {
    const { startBookshop, ENV } = await import('./bookshop-process.ts');
    const proxy = await tcpProxy(TEST_POSTGRES_URL, 5432);
    const schema = await openTestSchema('bookshop_outage_proc');
    const server = startBookshop({ ...ENV, NODE_ENV: 'production', LOG_LEVEL: 'info', JWT_SECRET: 'outage-outage-outage-outage-outage-0', DATABASE_URL: proxy.url, PGOPTIONS: `-c search_path=${schema.schema}` });
    try {
      const base = await server.url;
      const seen = { before: new Map<number, number>(), during: new Map<number, number>(), after: new Map<number, number>() };
      let phase: keyof typeof seen = 'before';
      let retryAfter: string | null = null;
      let detail: unknown = null;
      const deadline = Date.now() + 6000;
      const worker = async () => {
        while (Date.now() < deadline) {
          const res = await fetch(`${base}/books/1`, { headers: { accept: 'application/ld+json' } });
          const text = await res.text();
          seen[phase].set(res.status, (seen[phase].get(res.status) ?? 0) + 1);
          if (res.status === 503) {
            retryAfter = res.headers.get('retry-after');
            detail = (JSON.parse(text) as { detail?: unknown }).detail;
          }
        }
      };
      const load = Promise.all(Array.from({ length: 8 }, worker));
      await new Promise((r) => setTimeout(r, 1500));
      phase = 'during';
      proxy.cut();
      await new Promise((r) => setTimeout(r, 2500));
      await proxy.restore();
      await new Promise((r) => setTimeout(r, 500));
      phase = 'after';
      await load;
      assert.equal(server.child.exitCode, null, `the process died:\n${server.output().slice(-1500)}`);
      assert.ok((seen.before.get(200) ?? 0) > 0);
      assert.ok((seen.during.get(503) ?? 0) > 0, `503s during the cut: ${JSON.stringify([...seen.during])}`);
      assert.equal(retryAfter, '5');
      // Written for clients: production says it too (other 5xx say only their status text).
      assert.equal(detail, 'The database is unavailable; please try again shortly.');
      assert.deepEqual([...seen.during.keys()].filter((s) => s !== 200 && s !== 503), [], 'nothing but 200 and 503 during');
      assert.ok((seen.after.get(200) ?? 0) > 0, `200s after the restore: ${JSON.stringify([...seen.after])}`);
      const lines = server.output().split('\n').filter((l) => /Database (unavailable|connection lost)/.test(l));
      assert.ok(lines.length >= 1 && lines.length <= 4, `a few lines for the outage, got ${lines.length}`);
    } finally {
      await server.stop();
      await proxy.restore().catch(() => {});
      await schema.close();
      await proxy.close();
    }
  });
});
