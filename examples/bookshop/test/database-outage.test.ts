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
    const app = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:', LOG_LEVEL: 'info' }), database: shop.db, tls: null, logger, seed: { passwordCost: 1024 } });
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    try {
      const get = (url: string, accept = 'application/ld+json') => app.inject({ url, headers: { accept } });
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
      const write = await app.inject({ method: 'PATCH', url: '/books/1', headers: { authorization: ADMIN, 'content-type': 'application/merge-patch+json' }, payload: '{"price": 9}' });
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
      assert.equal((await app.inject({ method: 'PATCH', url: '/books/1', headers: { authorization: ADMIN, 'content-type': 'application/merge-patch+json' }, payload: '{"price": 9}' })).statusCode, 200);

      assert.deepEqual(uncaught, []);
      const outageLines = lines.filter((l) => /Database (unavailable|connection lost)/.test(l));
      assert.ok(outageLines.length >= 1 && outageLines.length <= 4, `a few lines for the whole outage, got ${outageLines.length}:\n${outageLines.join('')}`);
      assert.equal(lines.some((l) => /"level":50/.test(l) && /database/i.test(l)), false, 'no error-level stack per request');
    } finally {
      process.off('uncaughtException', onUncaught);
      await app.close();
      await proxy.restore().catch(() => {});
      await shop.close();
      await proxy.close();
    }
  });
});
