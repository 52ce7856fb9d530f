import { describe, test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { BROWSER, profilerApp } from './profiler-app.ts';
import { exceptionCss } from '../../src/errors/exception-css.ts';

describe('profiler routes', () => {
  let app: FastifyInstance;
  let failing: string;
  let ok: string;
  before(async () => {
    app = await profilerApp();
  });
  after(() => app.close());
  beforeEach(async () => {
    await app.profiler!.settled();
    await app.profiler!.storage.purge();
    ok = (await app.inject({ url: '/hello?page=3' })).headers['x-debug-token'] as string;
    await app.inject({ method: 'POST', url: '/echo', payload: { a: 1 } });
    failing = (await app.inject({ url: '/robots.txt', headers: { accept: BROWSER } })).headers['x-debug-token'] as string;
  });

  test('/_profiler/<token>/exception is the exception panel body: chain, traces and log', async () => {
    // Asked first: the exception page is itself profiled (as Symfony's is), so it becomes the latest.
    const latest = await app.inject({ url: '/_profiler/latest/exception' });
    assert.match(latest.headers['x-debug-token'] as string, /^[0-9a-f]{6}$/, 'the exception page has a profile of its own');
    const res = await app.inject({ url: `/_profiler/${failing}/exception` });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.ok(res.body.startsWith('<div class="exception-body"><h2>Exceptions <small>(2)</small></h2>'));
    assert.ok(res.body.includes('<span class="exception-class">NotFoundHttpException</span><span class="exception-message">No route found for &quot;GET /robots.txt&quot;</span>'));
    assert.ok(res.body.includes('<span class="exception-class">ResourceNotFoundException</span><span class="exception-message">No routes found for &quot;/robots.txt&quot;.</span>'));
    assert.ok(res.body.includes('<span class="frame-fn">routingError</span>'));
    assert.ok(res.body.includes('NotFoundHttpException: &quot;No route found for &quot;GET /robots.txt&quot;&quot;'), 'the log');
    assert.doesNotMatch(res.body, /<html/);
    assert.equal(latest.body, res.body);
    const none = await app.inject({ url: `/_profiler/${ok}/exception` });
    assert.equal(none.statusCode, 200);
    assert.ok(none.body.includes('No exception was thrown while handling this request.'));
    const unknown = await app.inject({ url: '/_profiler/000000/exception' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.body, '<p class="empty">Token &quot;000000&quot; not found.</p>');
  });

  test('a stored record this version cannot read is answered as an unknown token, never a 500', async () => {
    const summary = { token: 'bad001', parent: null, ip: '127.0.0.1', method: 'GET', url: 'http://localhost:80/x', time: Date.now(), statusCode: 200, durationMs: 1 };
    await app.profiler!.storage.write({ ...summary, data: 'null' });
    await app.profiler!.storage.write({ ...summary, token: 'bad002', data: '{"snapshot":{"token":"bad002"},"payload":null}' });
    // A packed snapshot cut short, and one whose parts are of the wrong kinds.
    await app.profiler!.storage.write({ ...summary, token: 'bad003', data: '{"snapshot":[2,"bad003",null],"payload":null}' });
    await app.profiler!.storage.write({ ...summary, token: 'bad004', data: '{"snapshot":[2,"bad004",null,[],1,null,0,1,200,7,[],{},2,3,4,5,{}],"payload":null}' });
    for (const token of ['bad001', 'bad002', 'bad003', 'bad004']) {
      const page = await app.inject({ url: `/_profiler/${token}` });
      assert.equal(page.statusCode, 404, token);
      assert.ok(page.body.includes(`Token &quot;${token}&quot; not found.`));
      assert.equal((await app.inject({ url: `/_profiler/${token}.json` })).statusCode, 404);
    }
  });

  test('/_profiler/<token>/exception.css is the exception stylesheet', async () => {
    const res = await app.inject({ url: `/_profiler/${failing}/exception.css` });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/css; charset=utf-8');
    assert.equal(res.body, exceptionCss);
    assert.ok(res.body.includes('.exception-chain'));
  });

  test('/_profiler/search_bar is the search form, prefilled from the query', async () => {
    const res = await app.inject({ url: '/_profiler/search_bar?ip=10.0.0.1&method=post&status_code=404&url=%22%3E%3Cb%3E&token=abc123&limit=50' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.ok(res.body.startsWith('<form class="pf-search" id="search-form" action="/_profiler/search" method="get" role="search">'));
    for (const field of ['ip', 'method', 'status_code', 'url', 'token', 'start', 'end', 'limit']) assert.ok(res.body.includes(`name="${field}"`), field);
    assert.ok(res.body.includes('name="ip" id="ip" value="10.0.0.1"'));
    assert.ok(res.body.includes('<option selected>POST</option>'));
    assert.ok(res.body.includes('value="404"'));
    assert.ok(res.body.includes('name="url" id="url" value="&quot;&gt;&lt;b&gt;"'));
    assert.ok(res.body.includes('<option selected>50</option>'));
    assert.deepEqual([...res.body.matchAll(/<option(?: selected)?>(\d+)<\/option>/g)].map((m) => m[1]), ['10', '50', '100']);
  });

  test('the search listing filters, newest first, and says how many it found', async () => {
    const page = async (qs: string) => (await app.inject({ url: `/_profiler/search?${qs}` })).body;
    const count = (body: string) => /<h2 class="pf-results-count">([^<]*)<\/h2>/.exec(body)?.[1];
    assert.equal(count(await page('')), '4 results found');
    assert.equal(count(await page('status_code=404')), '2 results found');
    assert.equal(count(await page('method=post')), '1 results found');
    assert.equal(count(await page('url=robots')), '2 results found');
    assert.equal(count(await page('ip=127.0.0.1&limit=100')), '4 results found');
    assert.equal(count(await page('ip=10.9.9.9')), 'No results found');
    assert.equal(count(await page('start=2001-01-01&end=2001-01-02')), 'No results found');
    assert.equal(count(await page('limit=10&start=2020-01-01T00:00')), '4 results found');
    const listing = await page('url=hello');
    assert.match(listing, /<td class="mono">\d{2}-[A-Z][a-z]{2}-\d{4} \d{2}:\d{2}:\d{2}<\/td><td><a class="mono token" href="\/_profiler\/([0-9a-f]{6})">\1<\/a><\/td>/);
    assert.deepEqual(
      [...listing.matchAll(/<th>([^<]+)<\/th>/g)].map((m) => m[1]),
      ['Status', 'IP', 'Method', 'URL', 'Time', 'Token'],
    );
    const root = await app.inject({ url: '/_profiler/' });
    assert.equal(count(root.body), '4 results found');
  });

  test('a token in the search jumps straight to its profile', async () => {
    const res = await app.inject({ url: `/_profiler/search?token=${ok}&ip=` });
    assert.equal(res.statusCode, 302);
    assert.equal(res.headers.location, `/_profiler/${ok}`);
  });

  test('malformed search values are a 400 naming the field', async () => {
    const cases: [string, string][] = [
      ['status_code=abc', 'Invalid profiler search parameter "status_code": expected a status code from 100 to 599, or a class such as 4xx.'],
      ['limit=1000', 'Invalid profiler search parameter "limit": expected a whole number from 1 to 100.'],
      ['method=G%20T', 'Invalid profiler search parameter "method": expected an HTTP method name.'],
      ['start=yesterday', 'Invalid profiler search parameter "start": expected a date such as 2026-11-22T08:05 or 22-Nov-2026 08:05:09.'],
      ['ip=not-ip', 'Invalid profiler search parameter "ip": expected an IP address such as 127.0.0.1 or ::1.'],
      ['ip=127.0.0.0%2F8', 'Invalid profiler search parameter "ip": expected an IP address such as 127.0.0.1 or ::1.'],
    ];
    for (const [qs, message] of cases) {
      for (const path of ['/_profiler/search', '/_profiler/search.json']) {
        const res = await app.inject({ url: `${path}?${qs}`, headers: { accept: 'application/json' } });
        assert.equal(res.statusCode, 400, `${path}?${qs}`);
        assert.equal(res.json().detail, message);
      }
    }
  });

  test('the JSON endpoints carry the same data as the pages', async () => {
    const search = await app.inject({ url: '/_profiler/search.json?status_code=404' });
    assert.equal(search.statusCode, 200);
    assert.match(search.headers['content-type'] as string, /^application\/json/);
    const body = search.json();
    assert.equal(body.count, 2);
    const [child, parent] = body.results;
    assert.equal(parent.token, failing);
    assert.equal(child.parent, failing);
    assert.deepEqual(Object.keys(parent).sort(), ['durationMs', 'formattedTime', 'ip', 'link', 'method', 'parent', 'statusCode', 'time', 'token', 'url'].sort());
    assert.equal(parent.link, `/_profiler/${failing}`);
    const html = (await app.inject({ url: '/_profiler/search?status_code=404' })).body;
    for (const r of body.results) {
      assert.ok(html.includes(`<td class="mono">${r.formattedTime}</td><td><a class="mono token" href="/_profiler/${r.token}">${r.token}</a></td>`));
    }
    const profile = (await app.inject({ url: `/_profiler/${failing}.json` })).json();
    const stored = await app.profiler!.read(failing);
    assert.deepEqual({ ...profile, formattedTime: undefined, links: undefined }, { ...stored, formattedTime: undefined, links: undefined });
    assert.deepEqual(profile.links, { html: `/_profiler/${failing}`, parent: null, children: [`/_profiler/${child.token}`] });
  });

  test('GET and HEAD only: other methods get 405 with Allow', async () => {
    const head = await app.inject({ method: 'HEAD', url: `/_profiler/${ok}` });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    const post = await app.inject({ method: 'POST', url: `/_profiler/${ok}`, headers: { accept: 'application/json' } });
    assert.equal(post.statusCode, 405);
    assert.equal(post.headers.allow, 'GET, HEAD');
    assert.equal(post.json().detail, `No route found for "POST /_profiler/${ok}": Method Not Allowed (Allow: GET, HEAD)`);
    const del = await app.inject({ method: 'DELETE', url: '/_profiler/search_bar', headers: { accept: 'application/json' } });
    assert.equal(del.statusCode, 405);
  });

  test('panels are chosen with ?panel=, each escaped and complete', async () => {
    for (const [panel, heading] of [['request', '<h2>Request</h2>'], ['response', '<h2>Response</h2>'], ['time', '<h2>Performance</h2>'], ['logs', '<h2>Log <small>'], ['exception', '<h2>Exceptions <small>(2)</small></h2>']]) {
      const res = await app.inject({ url: `/_profiler/${failing}?panel=${panel}` });
      assert.equal(res.statusCode, 200);
      assert.ok(res.body.includes(heading!), panel);
      assert.ok(res.body.includes(`class="selected" data-panel="${panel}"`), panel);
    }
    // Symfony's answer: a panel the profiler does not have is a 404 naming it, not another panel.
    for (const asked of ['nope', 'Request', '<b>x</b>']) {
      const unknownPanel = await app.inject({ url: `/_profiler/${ok}?panel=${encodeURIComponent(asked)}` });
      assert.equal(unknownPanel.statusCode, 404, asked);
      assert.match(unknownPanel.body, new RegExp(`<h2>Profile ${ok} has no panel &quot;${asked.replace(/</g, '&lt;').replace(/>/g, '&gt;')}&quot;; it has: request, response, .*, config\\.</h2>`));
      assert.ok(unknownPanel.body.includes(`<a href="/_profiler/${ok}?panel=db">Database</a>`), asked);
    }
    assert.ok((await app.inject({ url: `/_profiler/${ok}?panel=` })).body.includes('data-panel="request"'), 'an empty panel is the default one');
  });
});

describe('the profiler\'s error pages keep their own policy', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await profilerApp();
  });
  after(() => app.close());

  test('a token not found, a bad search: the error page\'s styles are allowed by the CSP it is sent with', async () => {
    const { createHash } = await import('node:crypto');
    for (const url of ['/_profiler/zzzzzz', '/_profiler/zzzzzz.json', '/_profiler/search?start=x', '/_profiler/abc/explain/1?signature=forged']) {
      const res = await app.inject({ url, headers: { accept: BROWSER } });
      assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${url}: ${res.statusCode}`);
      assert.match(String(res.headers['content-type']), /^text\/html/, url);
      // Each inline style of the page is one the policy names.
      const styles = [...res.body.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
      assert.ok(styles.length > 0, url);
      for (const css of styles) {
        assert.ok(String(res.headers['content-security-policy']).includes(`'sha256-${createHash('sha256').update(css!).digest('base64')}'`), `${url}: a style the CSP does not allow`);
      }
      assert.equal(res.headers['cache-control'], 'no-cache, private', url);
      assert.equal(res.headers['x-robots-tag'], 'noindex', url);
    }
  });
});
