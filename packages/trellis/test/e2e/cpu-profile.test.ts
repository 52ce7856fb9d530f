/**
 * The CPU panel in Chromium (issue 17, item 8): a request sent over a real socket with
 * `X-Trellis-Profile-CPU: 1` opens as a flame graph (an SVG with a title per frame, no script)
 * and a table of top functions, within the page's CSP. A screenshot lands in test-artifacts/.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS_DIR, browserSkipReason } from '../../src/testing/browser.ts';
import { browserSuite } from '../../src/testing/browser-suite.ts';
import { profilerApp } from '../profiler/profiler-app.ts';

const skip = browserSkipReason();

/** App code for the sampler to find. */
function sortManyBooks(ms: number): number {
  const end = performance.now() + ms;
  let n = 0;
  while (performance.now() < end) n += Array.from({ length: 2000 }, (_, i) => (i * 7919) % 2003).sort((a, b) => a - b)[0]!;
  return n;
}

describe('the CPU panel in a browser', { skip }, () => {
  const suite = browserSuite(() => profilerApp({}, {}, (a) => a.get('/slow', async () => ({ n: sortManyBooks(80) }))));

  test('a flame graph with the app function, top functions and the download link', async () => {
    const res = await fetch(`${suite.base}/slow`, { headers: { 'X-Trellis-Profile-CPU': '1' } });
    assert.equal(res.status, 200);
    const token = res.headers.get('x-debug-token')!;
    await suite.app.profiler!.settled();
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${suite.base}/_profiler/${token}?panel=cpu`);
    assert.equal(await page.locator('.pf-panel h2').first().textContent(), 'CPU profile');
    // sortManyBooks, or the handler it was inlined into once V8 optimized it.
    const frame = page.locator('svg.pf-flame g.app').first();
    await frame.waitFor({ state: 'visible' });
    assert.match((await frame.locator('title').textContent())!, /^(sortManyBooks|\(anonymous\)) \(packages\/trellis\/test\/e2e\/cpu-profile\.test\.ts:\d+\)\ntotal /);
    assert.ok(((await frame.locator('rect').boundingBox())?.width ?? 0) > 20, 'a wide frame: the request spent its time there');
    assert.match((await page.locator('table.pf-table').textContent())!, /cpu-profile\.test\.ts:\d+/);
    assert.equal(await page.locator('a.pf-download').getAttribute('href'), `/_profiler/${token}.cpuprofile`);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'cpu-profile.png'), fullPage: true });
    assert.deepEqual(violations, []);
    await page.close();
  });
});
