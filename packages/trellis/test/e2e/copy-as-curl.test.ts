/**
 * "Copy as curl" in Chromium (issue 17, item 4): under the profiler's CSP the copy script runs (it
 * is allowed by its hash), shows the button, and a click puts the command on the clipboard; with
 * scripts off the command is still there as text. A screenshot lands in test-artifacts/.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { ARTIFACTS_DIR, browserSkipReason, launchBrowser } from '../../src/testing/browser.ts';
import { profilerApp } from '../profiler/profiler-app.ts';

const skip = browserSkipReason();

describe('copy as curl in a browser', { skip }, () => {
  let app: FastifyInstance;
  let browser: Browser;
  let panel: string;
  before(async () => {
    app = await profilerApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const res = await fetch(`${base}/echo?page=1&token=copy-canary-1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: "it's", password: 'copy-canary-2' }) });
    await app.profiler!.settled();
    panel = `${base}/_profiler/${res.headers.get('x-debug-token')}?panel=request`;
    browser = await launchBrowser();
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  test('the button appears under the CSP and copies the command', async () => {
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(panel).origin });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(panel);
    const button = page.locator('button[data-copy="pf-curl"]');
    await button.waitFor({ state: 'visible' });
    const command = await page.locator('#pf-curl').textContent();
    assert.match(command!, /^curl -X POST 'http:\/\/127\.0\.0\.1:\d+\/echo\?page=1&token='"\$TRELLIS_TOKEN"/);
    assert.equal(command!.includes('copy-canary'), false);
    await button.click();
    // The Clipboard API answers asynchronously: the label changes once the text is written.
    await page.locator('button[data-copy="pf-curl"]', { hasText: 'Copied' }).waitFor({ timeout: 5000 });
    assert.equal(await button.textContent(), 'Copied');
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), command);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'copy-as-curl.png'), fullPage: true });
    assert.deepEqual(violations, []);
    await context.close();
  });

  test('without script the command is selectable text and the button stays hidden', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(panel);
    assert.match((await page.locator('#pf-curl').textContent())!, /--data-raw '\{\n {2}"title": "it'\\''s",\n {2}"password": "'"\$TRELLIS_PASSWORD"'"\n\}'/);
    assert.equal(await page.locator('button[data-copy="pf-curl"]').isVisible(), false);
    await context.close();
  });
});
