/**
 * The docs as a new user meets them: the bookshop on a real server, /docs in Chromium, "GET /books"
 * tried out, then a token from /auth put in through the Authorize button and "POST /reviews"
 * executed with it. Screenshots land in test-artifacts/ (git-ignored).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS_DIR, browserSkipReason, launchBrowser } from '../../src/testing/browser.ts';
import { bookshopApp } from '../docs/bookshop-app.ts';

const skip = browserSkipReason();

/** Expands an operation, presses "Try it out" (then `edit`) and "Execute"; returns the status Swagger UI shows. */
async function tryOut(page: Page, id: string, edit?: (block: ReturnType<Page['locator']>) => Promise<void>): Promise<string> {
  const block = page.locator(`#${id}`);
  await block.locator('.opblock-summary').first().click();
  await block.locator('button.try-out__btn').click();
  if (edit) await edit(block);
  await block.locator('button.execute').click();
  const status = block.locator('.live-responses-table .response .response-col_status').first();
  await status.waitFor({ timeout: 10_000 });
  return (await status.textContent())!.trim();
}

describe('the API docs in a browser', { skip }, () => {
  let app: FastifyInstance;
  let browser: Browser;
  let base: string;
  const problems: string[] = [];

  before(async () => {
    app = await bookshopApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  const open = async (url: string): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('requestfailed', (r) => problems.push(`${r.url()} ${r.failure()?.errorText}`));
    await page.goto(url);
    await page.locator('.swagger-ui .info .title').waitFor({ timeout: 15_000 });
    return page;
  };

  test('GET /books: expand, Try it out, Execute, 200 shown', async () => {
    const page = await open(`${base}/docs`);
    try {
      assert.match((await page.locator('.swagger-ui .info .title').textContent())!, /^Bookshop/);
      assert.equal(await tryOut(page, 'operations-Book-getBookCollection'), '200');
      const body = await page.locator('#operations-Book-getBookCollection .live-responses-table .response-col_description pre').first().textContent();
      assert.match(body!, /"@type": "Collection"/);
      await page.locator('#operations-Book-getBookCollection').screenshot({ path: join(ARTIFACTS_DIR, 'docs-get-books.png') });
    } finally {
      await page.close();
    }
  });

  test('Authorize with a token from /auth, then POST /reviews: 201 shown', async () => {
    const login = await fetch(`${base}/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'alice@bookshop.test', password: 'alice-password' }) });
    assert.equal(login.status, 200);
    const { token } = (await login.json()) as { token: string };

    const page = await open(`${base}/docs`);
    try {
      await page.locator('.scheme-container button.authorize').click();
      const bearer = page.locator('.modal-ux .auth-container').filter({ hasText: 'bearerAuth' });
      await bearer.locator('input').fill(token);
      await bearer.locator('button.authorize').click();
      await bearer.getByText('Authorized', { exact: true }).waitFor();
      await page.locator('.modal-ux button.close-modal').click();

      const status = await tryOut(page, 'operations-Review-postReview', async (block) => {
        await block.locator('textarea.body-param__text').fill(JSON.stringify({ rating: 5, body: 'Read it in one sitting.', author: '/users/2', book: '/books/3' }));
      });
      assert.equal(status, '201');
      const curl = await page.locator('#operations-Review-postReview .curl-command').textContent();
      assert.ok(curl!.includes(`Authorization: Bearer ${token}`), 'the request carried the token');
      await page.locator('#operations-Review-postReview').screenshot({ path: join(ARTIFACTS_DIR, 'docs-post-review.png') });

      // persistAuthorization: a reload keeps the token.
      await page.reload();
      await page.locator('.swagger-ui .info .title').waitFor();
      assert.equal(await page.locator('.scheme-container button.authorize.locked').count(), 1);
    } finally {
      await page.close();
    }
    const reviews = (await (await fetch(`${base}/reviews?book=/books/3`, { headers: { accept: 'application/json' } })).json()) as { body: string; author: string }[];
    assert.ok(reviews.some((r) => r.body === 'Read it in one sitting.' && r.author === '/users/2'));
  });

  test('/ in a browser is the UI too; the login operation authorizes its token by itself', async () => {
    const page = await open(`${base}/`);
    try {
      const status = await tryOut(page, 'operations-Authentication-login', async (block) => {
        await block.locator('textarea.body-param__text').fill(JSON.stringify({ email: 'bob@bookshop.test', password: 'bob-password' }));
      });
      assert.equal(status, '200');
      assert.equal(await page.locator('.scheme-container button.authorize.locked').count(), 1);
    } finally {
      await page.close();
    }
  });

  test('no script errors, no Content-Security-Policy violations, no failed requests', () => {
    assert.deepEqual(problems, []);
  });
});
