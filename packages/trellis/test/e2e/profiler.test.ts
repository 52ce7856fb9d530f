/**
 * The profiler as a new user meets it: a real server, one failing request, then the profiler pages
 * in Chromium. Screenshots land in test-artifacts/ (git-ignored).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { Writable } from 'node:stream';
import { createApp } from '../../src/app/create-app.ts';
import { createLogger } from '../../src/logging/create-logger.ts';
import { ARTIFACTS_DIR, browserSkipReason, launchBrowser } from '../../src/testing/browser.ts';
import { testConfig } from '../../src/testing/test-config.ts';

const skip = browserSkipReason();

/** The page's getComputedStyle (this project compiles without the DOM library); runs in the page. */
type StyleOf = (el: unknown) => { display: string; backgroundColor: string };

describe('profiler in a browser', { skip }, () => {
  let app: FastifyInstance;
  let browser: Browser;
  let base: string;

  before(async () => {
    const config = testConfig({ LOG_LEVEL: 'debug' });
    const sink = new Writable({ write: (_c, _e, cb) => cb() });
    app = await createApp({ config, tls: null, logger: createLogger({ level: 'debug', captureRequestRecords: true, destination: sink }) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  test('a failing request, then /_profiler/latest: the 404 profile, its panels, its sub-request', async () => {
    const res = await fetch(`${base}/robots.txt`);
    assert.equal(res.status, 404);
    const token = res.headers.get('x-debug-token')!;
    assert.match(token, /^[0-9a-f]{6}$/);
    assert.equal(res.headers.get('x-debug-token-link'), `${base}/_profiler/${token}`);

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // The pages' Content-Security-Policy allows their stylesheet and nothing else: the browser
    // must report no violation, and the stylesheet must apply.
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    try {
      await page.goto(`${base}/_profiler/latest`);
      assert.equal(await page.locator('.pf-topbar').evaluate((el) => ((globalThis as unknown as { getComputedStyle: StyleOf }).getComputedStyle(el).display)), 'flex', 'the profiler stylesheet applies');
      assert.equal(await page.locator('.pf-summary .pf-status').textContent(), '404');
      assert.equal(await page.locator('.pf-summary strong.token').textContent(), token);
      assert.match((await page.locator('.pf-summary h1').textContent())!, /GET\s*http:\/\/127\.0\.0\.1:\d+\/robots\.txt/);
      assert.equal(await page.locator('.exception-message').first().textContent(), 'No route found for "GET /robots.txt"');
      await page.screenshot({ path: join(ARTIFACTS_DIR, 'profiler-latest-exception.png'), fullPage: true });

      await page.click('a[data-panel="request"]');
      assert.equal(await page.locator('.pf-panel h2').first().textContent(), 'Request');
      assert.ok(page.url().endsWith(`/_profiler/${token}?panel=request`));
      await page.click('a[data-panel="time"]');
      assert.equal(await page.locator('.pf-panel h2').first().textContent(), 'Performance');
      assert.ok((await page.locator('.pf-timeline .row').count()) >= 5);
      const bar = await page.locator('.pf-timeline rect.bar').last().boundingBox();
      assert.ok(bar !== null && bar.width > 0 && bar.height > 0, 'the timeline bars are drawn');
      await page.click('a[data-panel="logs"]');
      assert.match((await page.locator('.pf-panel').textContent())!, /NotFoundHttpException: "No route found for "GET \/robots\.txt""/);
      await page.screenshot({ path: join(ARTIFACTS_DIR, 'profiler-latest-logs.png'), fullPage: true });
      await page.click('a[data-panel="security"]');
      assert.equal(await page.locator('.pf-panel h2').first().textContent(), 'Security');
      await page.click('a[data-panel="db"]');
      assert.equal(await page.locator('.pf-panel h2').first().textContent(), 'Database');
      await page.click('a[data-panel="api"]');
      assert.equal(await page.locator('.pf-panel h2').first().textContent(), 'API');
      await page.click('a[data-panel="http_client"]');
      assert.equal(await page.locator('.pf-panel h2').first().textContent(), 'HTTP Client');
      await page.click('a[data-panel="events"]');
      assert.equal(await page.locator('.pf-panel h2').first().textContent(), 'Events');
      assert.ok((await page.locator('.pf-events tbody tr').count()) >= 3);
      await page.click('a[data-panel="config"]');
      assert.equal(await page.locator('.pf-panel h2').first().textContent(), 'Configuration');
      await page.click('a[data-panel="router"]');
      assert.equal(await page.locator('.pf-panel h2').first().textContent(), 'Routing');
      assert.ok((await page.locator('.pf-route-trace tbody tr').count()) >= 1, 'the 404 lists the routes tried');
      await page.screenshot({ path: join(ARTIFACTS_DIR, 'profiler-latest-routing.png'), fullPage: true });

      await page.click('text=Forwarded to >> a');
      assert.match((await page.locator('.pf-related').textContent())!, new RegExp(`Forwarded from ${token}`));

      await page.goto(`${base}/_profiler/`);
      assert.equal(await page.locator('.pf-results-count').textContent(), '2 results found');
      assert.equal(await page.locator('table.pf-results tbody tr').count(), 2);
      await page.screenshot({ path: join(ARTIFACTS_DIR, 'profiler-search.png'), fullPage: true });

      await page.fill('#token', token);
      await page.click('form#search-form button[type=submit]');
      assert.ok(page.url().endsWith(`/_profiler/${token}`));

      await page.goto(`${base}/robots.txt`);
      assert.equal(await page.locator('h1').first().textContent(), 'No route found for "GET /robots.txt"');
      assert.notEqual(await page.locator('.exception-header').evaluate((el) => ((globalThis as unknown as { getComputedStyle: StyleOf }).getComputedStyle(el).backgroundColor)), 'rgba(0, 0, 0, 0)', 'the exception page stylesheet applies');
      assert.deepEqual(violations, []);
    } finally {
      await page.close();
    }
  });
});
