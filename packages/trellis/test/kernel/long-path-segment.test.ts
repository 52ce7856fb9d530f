/**
 * A long path segment is routed like any other: an ordinary 404 (or the operation's own answer)
 * through every hook, with the security headers and a profile, and the profiler's gate decides
 * on it as on any path. Fastify's router refused segments over 200 characters with a 414 before
 * any hook ran, which also told a refused client which paths the profiler owns.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../src/data/database.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { createBookshop } from '../../../../examples/bookshop/src/bookshop.ts';

test('a 300- and a 5,000-character segment: 404 through the hooks, the same for the profiler\'s paths when the gate refuses', async (t) => {
  const database = openDatabase('sqlite::memory:');
  const app = await createBookshop({ config: testConfig({ PROFILER: '1', PROFILER_ALLOW: '' }), database, tls: null, seed: { passwordCost: 1024 } });
  t.after(async () => {
    await app.close();
    await database.destroy();
  });
  for (const length of [300, 5000]) {
    const long = 'a'.repeat(length);
    const item = await app.inject({ url: `/books/${long}`, headers: { accept: 'application/ld+json' } });
    assert.equal(item.statusCode, 404, item.body.slice(0, 200));
    assert.equal(item.headers['x-content-type-options'], 'nosniff');
    assert.match(String(item.headers['x-debug-token']), /^[0-9a-f]{6}$/);
    assert.equal(item.json().code, 'item_not_found');
    assert.equal(item.json().detail, `Item not found for "/books/${long}".`);

    // A client the profiler gate refuses (not loopback, not in PROFILER_ALLOW) sees the same 404
    // under /_profiler as anywhere else.
    const remote = { remoteAddress: '192.0.2.7' };
    const outside = await app.inject({ url: `/nothing/${long}`, ...remote });
    const profiler = await app.inject({ url: `/_profiler/${long}`, ...remote });
    assert.equal(outside.statusCode, 404);
    assert.equal(profiler.statusCode, 404);
    assert.equal(profiler.json().code, outside.json().code);
    assert.equal(profiler.headers['x-content-type-options'], 'nosniff');
  }
});
