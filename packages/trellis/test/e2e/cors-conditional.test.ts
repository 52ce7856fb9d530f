/**
 * A browser app on another origin lives with the API's CORS defaults (issue 19, item 3): from a
 * page on one loopback origin, Chromium signs in, creates a review and reads its Location and
 * ETag, then makes a conditional PATCH (If-Match), which needs a preflight for If-Match, and reads
 * the new ETag; a stale If-Match gets 412. The browser enforces what CORS allows.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { openDatabase, type Database } from '../../src/data/database.ts';
import { browserSkipReason, launchBrowser } from '../../src/testing/browser.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { createBookshop } from '../../../../examples/bookshop/src/bookshop.ts';

const skip = browserSkipReason();

describe('a browser app on another origin: conditional requests through CORS', { skip }, () => {
  let browser: Browser;
  let shop: FastifyInstance;
  let database: Database;
  let page: Server;
  let origin: string;
  let api: string;

  before(async () => {
    page = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>client</title>'));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    database = openDatabase('sqlite::memory:');
    // The defaults but for the origin: a page on 127.0.0.1 calling the API on localhost.
    shop = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:', CORS_ALLOW_ORIGIN: `^${origin.replace(/[.]/g, '\\.')}$` }), database, tls: null, seed: { passwordCost: 1024 } });
    await shop.listen({ port: 0, host: '127.0.0.1' });
    api = `http://localhost:${(shop.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await shop?.close();
    await database?.destroy();
    page?.close();
  });

  test('create, read Location and ETag, PATCH with If-Match, 412 on a stale one', async () => {
    const tab = await browser.newPage();
    await tab.goto(`${origin}/`);
    const result = await tab.evaluate(async (api) => {
      const json = { 'Content-Type': 'application/json' };
      const { token } = (await (await fetch(`${api}/auth`, { method: 'POST', headers: json, body: JSON.stringify({ email: 'alice@bookshop.test', password: 'alice-password' }) })).json()) as { token: string };
      const auth = { Authorization: `Bearer ${token}` };
      const me = (await (await fetch(`${api}/users/2`, { headers: { ...auth, Accept: 'application/json' } })).json()) as { email?: string };
      const author = me.email === 'alice@bookshop.test' ? '/users/2' : '/users/3';
      const created = await fetch(`${api}/reviews`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/ld+json' }, body: JSON.stringify({ rating: 4, body: 'From another origin.', author, book: '/books/1' }) });
      const location = created.headers.get('location');
      const read = await fetch(`${api}${location}`, { headers: { Accept: 'application/json' } });
      const etag = read.headers.get('etag');
      const patched = await fetch(`${api}${location}`, { method: 'PATCH', headers: { ...auth, 'Content-Type': 'application/merge-patch+json', 'If-Match': etag! }, body: JSON.stringify({ rating: 5 }) });
      const stale = await fetch(`${api}${location}`, { method: 'PATCH', headers: { ...auth, 'Content-Type': 'application/merge-patch+json', 'If-Match': etag! }, body: JSON.stringify({ rating: 3 }) });
      return { created: created.status, location, etag, patched: patched.status, newEtag: patched.headers.get('etag'), stale: stale.status, debugToken: patched.headers.get('x-debug-token') };
    }, api);
    assert.equal(result.created, 201);
    assert.match(result.location ?? '', /^\/reviews\/\d+$/, 'Location is readable from another origin');
    assert.match(result.etag ?? '', /^(W\/)?"[^"]+"$/, 'ETag is readable from another origin');
    assert.equal(result.patched, 200, 'the preflight allows If-Match');
    assert.ok(result.newEtag && result.newEtag !== result.etag, `a new ETag: ${result.newEtag}`);
    assert.equal(result.stale, 412, 'a stale If-Match is refused');
    assert.match(result.debugToken ?? '', /^[0-9a-f]{6}$/);
    await tab.close();
  });
});
