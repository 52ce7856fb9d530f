/**
 * The profiler's themes and narrow layout in Chromium: the dark pick sticks across pages, `auto`
 * follows the system's colour scheme, and on a phone-sized screen a profile page does not scroll
 * sideways. Screenshots in test-artifacts/.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS_DIR, browserSkipReason } from '../../src/testing/browser.ts';
import { browserSuite } from '../../src/testing/browser-suite.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { bookshopApp } from '../docs/bookshop-app.ts';

const skip = browserSkipReason();
type Styled = { getComputedStyle(e: unknown): { backgroundColor: string; color: string } };
const background = (page: Page) => page.locator('body').evaluate((el) => (globalThis as unknown as Styled).getComputedStyle(el).backgroundColor);
const DARK = 'rgb(13, 17, 23)';
const LIGHT = 'rgb(244, 245, 247)';

describe('profiler themes and phone layout in a browser', { skip }, () => {
  const suite = browserSuite(() => bookshopApp(testConfig({ LOG_LEVEL: 'warn' })));
  let token: string;
  before(async () => {
    token = (await fetch(`${suite.base}/books?embed=author`, { headers: { accept: 'application/ld+json' } })).headers.get('x-debug-token')!;
    await suite.app.profiler!.settled();
  });

  test('dark picked from a profile page: back on that page, dark, and still dark on the next page; auto follows the system', async () => {
    const context = await suite.browser.newContext({ colorScheme: 'light', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      await page.goto(`${suite.base}/_profiler/${token}?panel=db`);
      assert.equal(await background(page), LIGHT);
      await page.locator('.pf-theme a[data-theme="dark"]').click();
      await page.waitForURL(`${suite.base}/_profiler/${token}?panel=db`);
      assert.equal(await background(page), DARK);
      await page.screenshot({ path: join(ARTIFACTS_DIR, 'profiler-dark-db.png') });
      await page.goto(`${suite.base}/_profiler/search`);
      assert.equal(await background(page), DARK);
      await page.locator('.pf-theme a[data-theme="auto"]').click();
      await page.waitForURL(`${suite.base}/_profiler/search`);
      assert.equal(await background(page), LIGHT, 'auto with a light system');
      await page.emulateMedia({ colorScheme: 'dark' });
      assert.equal(await background(page), DARK, 'auto with a dark system');
      await page.locator('.pf-theme a[data-theme="light"]').click();
      await page.waitForURL(`${suite.base}/_profiler/search`);
      assert.equal(await background(page), LIGHT, 'light picked on a dark system');
    } finally {
      await context.close();
    }
  });

  test('a phone: the menu sits above the panel and nothing scrolls sideways', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, colorScheme: 'dark' });
    const page = await context.newPage();
    try {
      for (const panel of ['request', 'time', 'db', 'api', 'security']) {
        await page.goto(`${suite.base}/_profiler/${token}?panel=${panel}`);
        const width = await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
        assert.ok(width <= 390, `${panel}: the page is ${width} px wide`);
        const menu = await page.locator('.pf-menu').boundingBox();
        const main = await page.locator('.pf-main').boundingBox();
        assert.ok(menu && main && menu.y + menu.height <= main.y + 1, `${panel}: the menu is above the panel`);
      }
      await page.goto(`${suite.base}/_profiler/${token}?panel=db`);
      await page.screenshot({ path: join(ARTIFACTS_DIR, 'profiler-phone-db.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });
});
