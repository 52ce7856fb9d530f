/**
 * Where the spec is silent, Symfony users' habits hold (issue 15, "Also"): its listing URL, debug
 * responses that are neither cached by shared caches nor indexed, and error answers naming the
 * profile of the sub-request that rendered them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BROWSER, profilerApp } from './profiler-app.ts';

test("Symfony's listing URL answers the same listing", async () => {
  const app = await profilerApp();
  try {
    await app.inject({ url: '/hello' });
    await app.inject({ url: '/robots.txt' });
    const ours = await app.inject({ url: '/_profiler/search?limit=10', headers: { accept: BROWSER } });
    const symfony = await app.inject({ url: '/_profiler/empty/search/results?limit=10', headers: { accept: BROWSER } });
    assert.equal(symfony.statusCode, 200);
    assert.equal(symfony.body, ours.body);
    assert.match(symfony.body, /3 results found/);
  } finally {
    await app.close();
  }
});

test('debug responses: no-cache, private unless set; noindex; an error names its sub-request profile', async () => {
  const app = await profilerApp({}, {}, (a) => a.get('/cached', async (_req, reply) => reply.header('cache-control', 'public, max-age=60').send({ ok: true })));
  try {
    const ok = await app.inject({ url: '/hello' });
    assert.equal(ok.headers['cache-control'], 'no-cache, private');
    assert.equal(ok.headers['x-robots-tag'], 'noindex');
    assert.equal(ok.headers['x-previous-debug-token'], undefined);
    assert.equal((await app.inject({ url: '/cached' })).headers['cache-control'], 'public, max-age=60');
    const failed = await app.inject({ url: '/robots.txt' });
    assert.equal(failed.headers['cache-control'], 'no-cache, private');
    const previous = failed.headers['x-previous-debug-token'] as string;
    assert.match(previous, /^[0-9a-f]{6}$/);
    assert.notEqual(previous, failed.headers['x-debug-token']);
    await app.profiler!.settled();
    const child = (await app.inject({ url: `/_profiler/${previous}.json` })).json() as { parent: string };
    assert.equal(child.parent, failed.headers['x-debug-token']);
  } finally {
    await app.close();
  }
  const production = await profilerApp({ NODE_ENV: 'production', APP_DEBUG: '0' });
  try {
    const r = await production.inject({ url: '/hello' });
    assert.equal(r.headers['x-robots-tag'], undefined);
    assert.equal(r.headers['cache-control'], undefined);
  } finally {
    await production.close();
  }
});
