/**
 * The live view in Chromium (issue 17, item 2): requests made from outside the page (Node's
 * fetch, as curl would) appear as rows; Pause holds them back until Resume; the filter hides
 * rows that do not match, those already shown included; a row's token opens its profile.
 * Screenshots land in test-artifacts/ (git-ignored).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS_DIR, browserSkipReason, launchBrowser } from '../../src/testing/browser.ts';
import { profilerApp } from '../profiler/profiler-app.ts';

const skip = browserSkipReason();

describe('live view in a browser', { skip }, () => {
  let app: FastifyInstance;
  let browser: Browser;
  let base: string;
  let page: Page;
  const violations: string[] = [];

  before(async () => {
    app = await profilerApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${base}/_profiler/live`);
    await page.locator('#live-state', { hasText: 'live' }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  const row = (urlEnd: string) => page.locator(`tr.live-row[data-url$="${urlEnd}"]`);

  test('requests made outside the page appear as rows, newest first, linking to their profiles', async () => {
    const first = await fetch(`${base}/hello?curl=1`);
    const second = await fetch(`${base}/no-such-page?curl=2`, { headers: { accept: 'application/json' } });
    await row('curl=2').waitFor();
    await row('curl=1').waitFor();
    const tokens = await page.locator('tr.live-row').evaluateAll((rows) => rows.map((r) => (r as unknown as { dataset: { token: string } }).dataset.token));
    assert.deepEqual(tokens.slice(0, 2), [second.headers.get('x-debug-token'), first.headers.get('x-debug-token')]);
    assert.equal(await row('curl=2').locator('.pf-badge').textContent(), '404');
    assert.equal(await row('curl=1').locator('td').nth(1).textContent(), 'GET');
    assert.equal(await row('curl=1').locator('a.token').getAttribute('href'), `/_profiler/${first.headers.get('x-debug-token')}`);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'profiler-live.png'), fullPage: true });
  });

  test('a URL holding markup is shown as text', async () => {
    // Sent as a raw path (a URL string would be percent-encoded): < and > reach the app, as curl sends them.
    await new Promise<void>((resolve, reject) => get({ host: '127.0.0.1', port: new URL(base).port, path: '/hello?q=<img/src=x/onerror=alert(1)>' }, (res) => res.resume().on('end', resolve)).on('error', reject));
    await row('onerror=alert(1)>').waitFor();
    assert.equal(await page.locator('#live-rows img').count(), 0);
    assert.match((await row('onerror=alert(1)>').locator('td').nth(2).textContent())!, /\/hello\?q=<img\/src=x\/onerror=alert\(1\)>$/);
  });

  test('Pause holds new rows back; Resume shows them', async () => {
    await page.click('#live-pause');
    assert.equal(await page.locator('#live-pause').textContent(), 'Resume');
    await fetch(`${base}/hello?while-paused=1`);
    // The page counts what it holds: once it says so, the event has arrived and no row was added.
    await page.locator('#live-state', { hasText: 'paused (1 new)' }).waitFor();
    assert.equal(await row('while-paused=1').count(), 0);
    await page.click('#live-pause');
    await row('while-paused=1').waitFor();
    assert.equal(await page.locator('#live-state').textContent(), 'live');
  });

  test('the filter hides rows that do not match, shown ones and new ones', async () => {
    await page.fill('#live-status', '4xx');
    assert.equal(await row('curl=1').isHidden(), true);
    assert.equal(await row('curl=2').isVisible(), true);
    await fetch(`${base}/hello?filtered=1`);
    await fetch(`${base}/missing?filtered=2`);
    await row('filtered=2').waitFor();
    assert.equal(await row('filtered=1').isHidden(), true);
    await page.fill('#live-status', '');
    await page.fill('#live-url', 'curl=1');
    assert.equal(await row('curl=1').isVisible(), true);
    assert.equal(await row('curl=2').isHidden(), true);
    await page.fill('#live-url', '');
    await page.selectOption('#live-method', 'POST');
    assert.equal(await page.locator('tr.live-row:visible').count(), 0);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'profiler-live-filtered.png'), fullPage: true });
    await page.selectOption('#live-method', '');
    assert.equal(await row('filtered=1').isVisible(), true);
  });

  test("a row's token opens its profile; no CSP violation on the way", async () => {
    const token = (await row('curl=1').getAttribute('data-token'))!;
    await row('curl=1').locator('a.token').click();
    await page.waitForURL(`${base}/_profiler/${token}`);
    assert.equal(await page.locator('.pf-summary strong.token').textContent(), token);
    assert.deepEqual(violations, []);
  });

  test('the search page dashboard draws its histogram without script, under the same CSP', async () => {
    await page.goto(`${base}/_profiler/search?limit=100`);
    const bars = page.locator('.pf-dashboard svg.pf-histogram rect.bar');
    assert.equal(await bars.count(), 9);
    const heights = await bars.evaluateAll((rects) => rects.map((r) => Number((r as unknown as { getAttribute(n: string): string }).getAttribute('height'))));
    assert.ok(heights.some((h) => h > 0), heights.join(','));
    const drawn = await bars.first().boundingBox();
    assert.ok(drawn !== null && drawn.width > 0, 'the bars are laid out');
    assert.match((await page.locator('.pf-error-rate').textContent())!, /^Error rate: [\d.]+% 5xx, [\d.]+% 4xx, of \d+ requests$/);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'profiler-search-dashboard.png'), fullPage: true });
    assert.deepEqual(violations, []);
  });

  test('Pin on a profile page, then Purge on the search page: the pinned profile stays', async () => {
    const kept = (await fetch(`${base}/hello?pin-in-browser=1`)).headers.get('x-debug-token')!;
    const gone = (await fetch(`${base}/hello?purged-in-browser=1`)).headers.get('x-debug-token')!;
    await app.profiler!.settled();
    await page.goto(`${base}/_profiler/${kept}`);
    await page.click('form.pf-pin button');
    await page.waitForURL(`${base}/_profiler/${kept}`);
    assert.equal(await page.locator('form.pf-pin button').textContent(), 'Unpin');
    await page.goto(`${base}/_profiler/search?limit=100`);
    await page.click('form.pf-purge button');
    await page.waitForURL(`${base}/_profiler/search?limit=100`);
    assert.equal(await page.locator('.pf-results-count').textContent(), '1 results found');
    assert.equal(await page.locator('a.token').first().textContent(), kept);
    assert.equal(await app.profiler!.read(gone), null);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'profiler-pinned-after-purge.png'), fullPage: true });
    assert.deepEqual(violations, []);
  });
});
