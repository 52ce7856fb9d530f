/**
 * The Routing panel (issue 16, item 3): the matched route, its parameters and methods; for a 404
 * or 405, every route closest first and why it did not answer (Symfony's TraceableUrlMatcher).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../src/data/database.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { createBookshop } from '../../../../examples/bookshop/src/bookshop.ts';
import type { RouterData } from '../../src/profiler/panels/router/router-collector.ts';
import { BROWSER } from './profiler-app.ts';

test('the routing panel: matched route, parameters and methods; the trace of a 404 and a 405', async () => {
  const database = openDatabase('sqlite::memory:');
  const app = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:' }), database, tls: null, seed: { passwordCost: 1024 } });
  const profileOf = async (res: { headers: Record<string, unknown> }) => {
    await app.profiler!.settled();
    const token = res.headers['x-debug-token'] as string;
    const data = ((await app.inject({ url: `/_profiler/${token}.json` })).json() as { collectors: { router: RouterData } }).collectors.router;
    const page = (await app.inject({ url: `/_profiler/${token}?panel=router`, headers: { accept: BROWSER } })).body;
    return { data, page };
  };
  try {
    const item = await profileOf(await app.inject({ url: '/books/1' }));
    assert.equal(item.data.route, '/books/:id');
    assert.deepEqual(item.data.params, { id: '1' });
    assert.equal(item.data.path, '/books/1');
    assert.equal(item.data.trace, null);
    // A matched request records nothing for routing: the panel asks the running app for the methods.
    assert.match(item.page, /<div class="value mono">\/books\/:id<\/div><div class="label">Matched route<\/div>/);
    assert.match(item.page, /<div class="value mono">GET, HEAD, PUT, PATCH, DELETE<\/div><div class="label">Allowed on this path<\/div>/);
    assert.doesNotMatch(item.page, /Routes tried/);

    const put = await app.inject({ method: 'PUT', url: '/authors/1', headers: { 'content-type': 'application/json' }, payload: '{}' });
    assert.equal(put.statusCode, 405);
    const notAllowed = await profileOf(put);
    assert.deepEqual([notAllowed.data.trace![0]!.path, notAllowed.data.trace![0]!.level], ['/authors/:id', 'method']);
    assert.equal(notAllowed.data.trace![0]!.why, 'The path matches, the method PUT does not (GET, HEAD, PATCH, DELETE).');
    assert.match(notAllowed.page, /Routes tried/);
    assert.match(notAllowed.page, /<a[^>]*data-panel="router"[^>]*>[\s\S]*?method/);

    const missing = await profileOf(await app.inject({ url: '/books/1/reviews' }));
    assert.equal(missing.data.statusCode, 404);
    assert.equal(missing.data.methods, null);
    assert.ok(missing.data.trace!.every((e) => e.level === 'none'));
    assert.deepEqual(missing.data.trace!.slice(0, 2).map((e) => e.path), ['/books/:id', '/books']);
    assert.match(missing.page, /<td class="mono">\/books\/:id<\/td>/);
    assert.match(missing.page, /<a[^>]*data-panel="router"[^>]*>[\s\S]*?no route/);
    // No route answered: the not-found handler's wildcard is not shown as a parameter.
    assert.deepEqual(missing.data.params, {});
    assert.deepEqual(notAllowed.data.params, {});
    // A typo: the route it is a typo of comes first.
    const typo = await profileOf(await app.inject({ url: '/bookz' }));
    assert.equal(typo.data.trace![0]!.path, '/books');

    // The path as routed: percent-escapes decoded as the router decodes them.
    const escaped = await profileOf(await app.inject({ url: '/%62ooks/2' }));
    assert.equal(escaped.data.path, '/books/2');
    assert.equal(escaped.data.route, '/books/:id');
  } finally {
    await app.close();
    await database.destroy();
  }
});
