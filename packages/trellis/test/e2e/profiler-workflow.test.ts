/**
 * Issue 17 tried as a new user would, in Chromium, on the bookshop: two GET /books with different
 * filters compared through the profile page's "Compare with" box; the HAR downloaded from the
 * profile page parsed and schema-checked; the curl command the Request panel shows run with the
 * token filled in. Screenshots in test-artifacts/.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ARTIFACTS_DIR, browserSkipReason } from '../../src/testing/browser.ts';
import { browserSuite } from '../../src/testing/browser-suite.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { bookshopApp } from '../docs/bookshop-app.ts';

const skip = browserSkipReason();
const run = promisify(execFile);
// Resolves with the document when it is valid HAR 1.2; rejects with the schema's errors otherwise.
const harValidator = createRequire(import.meta.url)('har-validator') as { har(data: unknown): Promise<unknown> };

describe('the profiler workflow in a browser (compare, HAR, curl)', { skip }, () => {
  const suite = browserSuite(() => bookshopApp(testConfig({ LOG_LEVEL: 'warn' })));

  test('two GET /books with different filters, compared from the profile page', async () => {
    const tokenOf = async (path: string) => (await fetch(`${suite.base}${path}`, { headers: { accept: 'application/ld+json' } })).headers.get('x-debug-token')!;
    const a = await tokenOf('/books?title=dune');
    const b = await tokenOf('/books?embed=author&order%5Btitle%5D=desc');
    await suite.app.profiler!.settled();
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    try {
      await page.goto(`${suite.base}/_profiler/${a}`);
      await page.locator('#compare-with').fill(b);
      await page.locator('.pf-compare-form button').click();
      await page.waitForURL(`${suite.base}/_profiler/${a}/compare/${b}`);
      const sides = await page.locator('.pf-compare-side .token').allTextContents();
      assert.deepEqual(sides, [a, b]);
      // B embeds the authors: one statement more than A, shown as added.
      const added = await page.locator('.pf-compare-queries tr.added pre').allTextContents();
      assert.ok(added.some((sql) => /from "authors"/i.test(sql)), added.join(' | '));
      await page.screenshot({ path: join(ARTIFACTS_DIR, 'profiler-compare.png'), fullPage: true });
    } finally {
      await page.close();
    }
  });

  test("the HAR link of a signed-in POST /reviews: a HAR a devtools imports, with the token redacted", async () => {
    const login = await fetch(`${suite.base}/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'alice@bookshop.test', password: 'alice-password' }) });
    const { token: jwt } = (await login.json()) as { token: string };
    const posted = await fetch(`${suite.base}/reviews`, { method: 'POST', headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json', accept: 'application/ld+json' }, body: JSON.stringify({ book: '/books/1', author: '/users/2', rating: 5, body: 'A classic of the genre, read it twice.' }) });
    assert.equal(posted.status, 201, await posted.text());
    const token = posted.headers.get('x-debug-token')!;
    await suite.app.profiler!.settled();
    const context = await suite.browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    try {
      await page.goto(`${suite.base}/_profiler/${token}`);
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`a[href="/_profiler/${token}.har"]`).click()]);
      assert.equal(download.suggestedFilename(), `trellis-${token}.har`);
      const file = join(ARTIFACTS_DIR, `trellis-${token}.har`);
      await download.saveAs(file);
      const text = readFileSync(file, 'utf8');
      const har = JSON.parse(text) as { log: { entries: { request: { method: string; url: string; headers: { name: string; value: string }[] }; response: { status: number } }[] } };
      assert.equal(await harValidator.har(har), har);
      assert.equal(har.log.entries[0]!.request.method, 'POST');
      assert.equal(har.log.entries[0]!.response.status, 201);
      assert.equal(text.includes(jwt), false, 'the bearer token is not in the HAR');
      assert.equal(har.log.entries[0]!.request.headers.find((h) => h.name.toLowerCase() === 'authorization')?.value, '[redacted]');

      // The Request panel's curl command, copied as text, replays it with the token filled in.
      await page.goto(`${suite.base}/_profiler/${token}?panel=request`);
      const command = (await page.locator('#pf-curl').textContent())!;
      assert.match(command, /TRELLIS_AUTHORIZATION/);
      assert.equal(command.includes(jwt), false);
      await page.screenshot({ path: join(ARTIFACTS_DIR, 'profiler-curl.png'), fullPage: true });
      const replay = await run('sh', ['-c', `${command} -s -o /dev/null -w '%{http_code}'`], { env: { ...process.env, TRELLIS_AUTHORIZATION: `Bearer ${jwt}` }, timeout: 10_000 });
      assert.equal(replay.stdout.trim(), '201', 'the replayed POST created another review');
    } finally {
      await context.close();
    }
  });
});
