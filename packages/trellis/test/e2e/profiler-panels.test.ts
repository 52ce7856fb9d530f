/**
 * Issue 16's tour, in Chromium, on the bookshop over a real socket: the profile of POST /reviews
 * made with a token (queries, votes, logs, the pipeline), of GET /books?embed=author&order[title]=asc
 * (grouped queries, no N+1), of a request that fetches from another Trellis app (its profile
 * linked), and of a 404 (the routes tried). Every panel of each is opened and its visible content
 * checked; no panel breaks the page's CSP. Screenshots land in test-artifacts/ (git-ignored).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { createApp } from '../../src/app/create-app.ts';
import { openDatabase, type Database } from '../../src/data/database.ts';
import { createLogger } from '../../src/logging/create-logger.ts';
import { defaultPanels } from '../../src/profiler/panels/default-panels.ts';
import { ARTIFACTS_DIR, browserSkipReason, launchBrowser } from '../../src/testing/browser.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { createBookshop } from '../../../../examples/bookshop/src/bookshop.ts';

const skip = browserSkipReason();
const quiet = () => createLogger({ level: 'debug', captureRequestRecords: true, destination: new Writable({ write: (_c, _e, cb) => cb() }) });

describe('every profiler panel in a browser, on the bookshop', { skip }, () => {
  let shop: FastifyInstance;
  let stock: FastifyInstance;
  let database: Database;
  let browser: Browser;
  let base: string;
  const violations: string[] = [];

  before(async () => {
    stock = await createApp({ config: testConfig({ PROFILER_DSN: 'memory:' }), logger: quiet() });
    stock.get('/stock/:id', async (request) => ({ id: (request.params as { id: string }).id, stock: 3 }));
    await stock.listen({ port: 0, host: '127.0.0.1' });
    const stockBase = `http://127.0.0.1:${(stock.server.address() as AddressInfo).port}`;
    database = openDatabase('sqlite::memory:');
    shop = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:' }), database, tls: null, logger: quiet(), seed: { passwordCost: 1024 } });
    shop.get('/books/:id/stock', async (request) => {
      const res = await fetch(`${stockBase}/stock/${(request.params as { id: string }).id}`);
      return res.json();
    });
    await shop.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(shop.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await shop?.close();
    await stock?.close();
    await database?.destroy();
  });

  /** Opens every panel of a profile; returns each panel's visible text. */
  async function panels(page: Page, token: string, name: string): Promise<Record<string, string>> {
    const texts: Record<string, string> = {};
    for (const panel of defaultPanels) {
      await page.goto(`${base}/_profiler/${token}?panel=${panel.name}`);
      const heading = (await page.locator('.pf-panel h2').first().textContent()) ?? '';
      // The exception and logs views are shared with the debug error page and title themselves.
      if (panel.name === 'logs') assert.match(heading, /^Logs? \(\d+\)$|^Logs?$/, `${name}: logs`);
      else if (panel.name !== 'exception') assert.equal(heading, panel.label, `${name}: ${panel.name}`);
      texts[panel.name] = (await page.locator('.pf-panel').textContent()) ?? '';
      await page.screenshot({ path: join(ARTIFACTS_DIR, `panels-${name}-${panel.name}.png`), fullPage: true });
    }
    return texts;
  }

  test('POST /reviews with a token, a collection with embed and order, a fetch to another app, a 404', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    const { token } = (await (await fetch(`${base}/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'alice@bookshop.test', password: 'alice-password' }) })).json()) as { token: string };
    const users = (await (await fetch(`${base}/users/2`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } })).json()) as { email?: string };
    const me = users.email === 'alice@bookshop.test' ? '/users/2' : '/users/3';
    const review = await fetch(`${base}/reviews`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/ld+json' }, body: JSON.stringify({ rating: 5, body: 'Loved it.', author: me, book: '/books/1' }) });
    assert.equal(review.status, 201, await review.text());
    const posted = await panels(page, review.headers.get('x-debug-token')!, 'post-review');
    assert.match(posted.security!, /alice@bookshop\.test[\s\S]*ACCESS GRANTED[\s\S]*role GRANT[\s\S]*ROLE_USER/);
    assert.match(posted.db!, /INSERT INTO\s+"reviews"/i);
    assert.match(posted.api!, /Review[\s\S]*post[\s\S]*deserialize[\s\S]*validate[\s\S]*process/);
    assert.match(posted.events!, /trellis:security:vote/);
    assert.match(posted.time!, /query #1/);

    const list = await fetch(`${base}/books?embed=author&order[title]=asc`, { headers: { accept: 'application/ld+json' } });
    assert.equal(list.status, 200);
    const listed = await panels(page, list.headers.get('x-debug-token')!, 'collection');
    assert.doesNotMatch(listed.db!, /The same statement ran/, 'the embed is fetched without N+1');
    assert.match(listed.api!, /order\[title\][\s\S]*asc/);
    assert.match(listed.router!, /\/books/);

    const withFetch = await fetch(`${base}/books/1/stock`);
    assert.equal(withFetch.status, 200);
    const fetched = await panels(page, withFetch.headers.get('x-debug-token')!, 'fetch');
    assert.match(fetched.http_client!, /GET\s+http:\/\/127\.0\.0\.1:\d+\/stock\/1[\s\S]*200[\s\S]*Profile of the callee/);
    await page.goto(`${base}/_profiler/${withFetch.headers.get('x-debug-token')}?panel=http_client`);
    const calleeLink = await page.locator('.pf-related a').first().getAttribute('href');
    assert.match(calleeLink ?? '', /^http:\/\/127\.0\.0\.1:\d+\/_profiler\/[0-9a-f]{6}$/);
    await page.goto(calleeLink!);
    assert.match((await page.locator('.pf-summary h1').textContent()) ?? '', /GET\s*http:\/\/127\.0\.0\.1:\d+\/stock\/1/);

    const missing = await fetch(`${base}/books/1/reviewz`);
    assert.equal(missing.status, 404);
    const notFound = await panels(page, missing.headers.get('x-debug-token')!, 'not-found');
    assert.match(notFound.router!, /Routes tried[\s\S]*\/books\/:id[\s\S]*No match/);

    assert.deepEqual(violations, [], 'no panel breaks the Content-Security-Policy');
    await page.close();
  });
});
