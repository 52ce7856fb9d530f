/**
 * The web debug toolbar as a new user meets it, in Chromium: /docs shows it under the docs' own
 * CSP; "Try it out" on GET /books adds a row to its request list whose link opens that profile;
 * it hides and stays hidden across a reload; a 404 page has it too, and a JSON response, a
 * redirect, a fetch() of a page and an attachment never do. Screenshots in test-artifacts/.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS_DIR, browserSkipReason } from '../../src/testing/browser.ts';
import { browserSuite } from '../../src/testing/browser-suite.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { bookshopApp } from '../docs/bookshop-app.ts';

const skip = browserSkipReason();
const PAGE = '<!DOCTYPE html><html><head><title>host</title><style>* { color: rgb(255, 0, 0) !important; font-size: 40px !important; }</style></head><body><p id="host">host page</p></body></html>';

describe('the web debug toolbar in a browser', { skip }, () => {
  const suite = browserSuite(async () => {
    const app = await bookshopApp(testConfig({ LOG_LEVEL: 'warn' }));
    // A page whose CSS shouts at everything: the toolbar's shadow root keeps it out.
    app.get('/host', async (_request, reply) => reply.type('text/html').header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'").send(PAGE));
    app.get('/host/redirect', async (_request, reply) => reply.redirect('/host', 302));
    app.get('/host/download', async (_request, reply) => reply.type('text/html').header('content-disposition', 'attachment; filename="x.html"').send(PAGE));
    return app;
  });
  const problems: string[] = [];

  const open = async (url: string): Promise<Page> => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`${url}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`${url}: ${e.message}`));
    page.on('response', (r) => {
      if (r.url().includes('/_wdt/') && r.status() >= 400) problems.push(`${url}: ${r.url()} answered ${r.status()}`);
    });
    await page.goto(url);
    return page;
  };
  const bar = (page: Page) => page.locator('#trellis-wdt .wdt-bar');

  test('/docs: the toolbar is there; Try it out on GET /books adds a row whose link opens that profile', async () => {
    const page = await open(`${suite.base}/docs`);
    try {
      await bar(page).waitFor({ timeout: 10_000 });
      assert.equal(await bar(page).locator('.wdt-status .wdt-value').textContent(), '200');
      assert.match((await bar(page).locator('.wdt-status .wdt-label').textContent())!, /^GET \/docs$/);
      const block = page.locator('#operations-Book-getBookCollection');
      await block.locator('.opblock-summary').first().click();
      await block.locator('button.try-out__btn').click();
      await block.locator('button.execute').click();
      await block.locator('.live-responses-table .response .response-col_status').first().waitFor({ timeout: 10_000 });
      const toggle = bar(page).locator('.wdt-ajax-toggle');
      await toggle.waitFor({ state: 'visible', timeout: 5_000 });
      await toggle.click();
      const row = bar(page).locator('.wdt-ajax-panel tbody tr').first();
      await row.waitFor({ timeout: 5_000 });
      const cells = await row.locator('td').allTextContents();
      assert.equal(cells[1], '200');
      assert.equal(cells[2], 'GET');
      assert.match(cells[3]!, /\/books(\?|$)/);
      const token = cells[0]!;
      assert.match(token, /^[0-9a-f]{6}$/);
      await page.screenshot({ path: join(ARTIFACTS_DIR, 'toolbar-docs-ajax.png') });
      const href = await row.locator('a').getAttribute('href');
      const profile = await suite.browser.newPage();
      await profile.goto(new URL(href!, suite.base).href);
      assert.match((await profile.locator('h1').textContent())!, /GET.*\/books/);
      assert.equal(await profile.locator('.pf-summary .token').textContent(), token);
      await profile.close();
    } finally {
      await page.close();
    }
  });

  test("a page with hostile CSS and a strict CSP: the toolbar loads under the page's nonce and keeps its own look", async () => {
    const page = await open(`${suite.base}/host`);
    try {
      await bar(page).waitFor({ timeout: 10_000 });
      const hostColor = await page.locator('#host').evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(el).color);
      assert.equal(hostColor, 'rgb(255, 0, 0)');
      const tokenColor = await bar(page).locator('.wdt-token').evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { color: string; fontSize: string } }).getComputedStyle(el));
      assert.notEqual(tokenColor.color, 'rgb(255, 0, 0)');
      assert.equal(tokenColor.fontSize, '13px');
      await page.screenshot({ path: join(ARTIFACTS_DIR, 'toolbar-host-page.png') });
    } finally {
      await page.close();
    }
  });

  test('hide: stays hidden after a reload, and comes back with the show button', async () => {
    const page = await open(`${suite.base}/host`);
    try {
      await bar(page).waitFor({ timeout: 10_000 });
      await page.locator('#trellis-wdt .wdt-hide').click();
      await page.locator('#trellis-wdt .wdt-show').waitFor({ state: 'visible' });
      await page.reload();
      await page.locator('#trellis-wdt .wdt-show').waitFor({ state: 'visible', timeout: 10_000 });
      assert.equal(await bar(page).isVisible(), false);
      await page.locator('#trellis-wdt .wdt-show').click();
      await bar(page).waitFor({ state: 'visible' });
      assert.equal(await page.locator('#trellis-wdt .wdt-show').isVisible(), false);
    } finally {
      await page.close();
    }
  });

  test('a 404 page has it, pointing at the 404; JSON, a redirect, a fetch() of a page and an attachment have none', async () => {
    const page = await open(`${suite.base}/no/such/page`);
    try {
      await bar(page).waitFor({ timeout: 10_000 });
      assert.equal(await bar(page).locator('.wdt-status .wdt-value').textContent(), '404');
      assert.equal(await bar(page).locator('[data-panel="router"] .wdt-value').textContent(), 'no route');
      await page.screenshot({ path: join(ARTIFACTS_DIR, 'toolbar-404.png') });
      // What the browser itself fetches: a fetch() of a page is not a page.
      const fetched = await page.evaluate(async () => (await fetch('/host')).text());
      assert.doesNotMatch(fetched, /trellis-wdt/);
    } finally {
      await page.close();
    }
    const json = await open(`${suite.base}/books.json`);
    assert.doesNotMatch(await json.content(), /trellis-wdt/);
    await json.close();
    const redirected = await fetch(`${suite.base}/host/redirect`, { redirect: 'manual', headers: { 'sec-fetch-dest': 'document' } });
    assert.equal(redirected.status, 302);
    assert.doesNotMatch(await redirected.text(), /trellis-wdt/);
    const download = await fetch(`${suite.base}/host/download`, { headers: { 'sec-fetch-dest': 'document' } });
    assert.doesNotMatch(await download.text(), /trellis-wdt/);
  });

  test('no script error and no CSP violation on any page the toolbar was in', () => {
    // A 404 in the console is the 404 page itself or a favicon (the toolbar's own files are watched above).
    assert.deepEqual(problems.filter((p) => !p.endsWith('Failed to load resource: the server responded with a status of 404 (Not Found)')), []);
  });
});
