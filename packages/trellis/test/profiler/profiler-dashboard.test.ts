/**
 * The search page's dashboard (issue 17, item 5): status codes, error rates, a latency histogram
 * (inline SVG) and the slowest routes of the listed main requests, from the listing itself.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { profilerApp } from './profiler-app.ts';

describe('search dashboard', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await profilerApp({}, {}, (a) => {
      a.get('/boom', async () => {
        throw new Error('dashboard boom');
      });
    });
    for (const url of ['/hello?a=1', '/hello?a=2', '/hello', '/missing', '/boom', '/%3Cb%3Ex']) await app.inject({ url, headers: { accept: 'application/json' } });
    await app.profiler!.settled();
  });
  after(() => app.close());

  const section = (body: string) => body.slice(body.indexOf('<section class="pf-dashboard"'), body.indexOf('</section>') + '</section>'.length);

  test('counts the main requests listed, not their sub-requests', async () => {
    const body = (await app.inject({ url: '/_profiler/search?limit=100' })).body;
    assert.match(body, /<h2 class="pf-results-count">9 results found<\/h2>/, 'three errors rendered in sub-requests');
    const dash = section(body);
    const statuses = [...dash.matchAll(/<span class="pf-badge[^"]*">(\d+)<\/span> (\d+)<\/span>/g)].map((m) => [m[1], m[2]]);
    assert.deepEqual(statuses, [['200', '3'], ['404', '2'], ['500', '1']]);
    assert.match(dash, /Error rate: <strong class="server">16\.7%<\/strong> 5xx, <strong class="client">33\.3%<\/strong> 4xx, of 6 requests/);
  });

  test('the histogram is inline SVG: a bar per bucket, counts adding up to the requests', async () => {
    const dash = section((await app.inject({ url: '/_profiler/search?limit=100' })).body);
    assert.equal((dash.match(/<rect class="bar"/g) ?? []).length, 9);
    const titles = [...dash.matchAll(/<title>([^<]+): (\d+)<\/title>/g)];
    assert.deepEqual(titles.map((m) => m[1]), ['&lt; 5 ms', '5–10 ms', '10–25 ms', '25–50 ms', '50–100 ms', '100–250 ms', '250–500 ms', '500–1000 ms', '≥ 1 s']);
    assert.equal(titles.reduce((sum, m) => sum + Number(m[2]), 0), 6);
  });

  test('slowest routes are method and path, without the query, markup escaped', async () => {
    const dash = section((await app.inject({ url: '/_profiler/search?limit=100' })).body);
    const routes = [...dash.matchAll(/<tr><td class="mono">([^<]+)<\/td><td>(\d+)<\/td>/g)].map((m) => [m[1], m[2]]);
    assert.deepEqual(routes.map((r) => r[0]).sort(), ['GET /%3Cb%3Ex', 'GET /boom', 'GET /hello', 'GET /missing']);
    assert.deepEqual(routes.find((r) => r[0] === 'GET /hello'), ['GET /hello', '3']);
    assert.doesNotMatch(dash, /<b>/);
  });

  test('follows the search: narrowed to 404s, only theirs; nothing listed, no dashboard', async () => {
    const body = (await app.inject({ url: '/_profiler/search?status_code=404&limit=100' })).body;
    assert.match(section(body), /Error rate: <strong class="server">0%<\/strong> 5xx, <strong class="client">100%<\/strong> 4xx, of 2 requests/);
    const none = (await app.inject({ url: '/_profiler/search?url=nothing-matches-this' })).body;
    assert.equal(none.includes('<section class="pf-dashboard"'), false);
    assert.match(none, /No results found/);
  });

  test('the page runs no script: the only one its policy allows is the copy script, by hash, and the page has none', async () => {
    const res = await app.inject({ url: '/_profiler/search?limit=100' });
    assert.equal(res.body.includes('<script'), false);
    assert.match(String(res.headers['content-security-policy']), /; script-src 'sha256-[A-Za-z0-9+/]+=*';/);
  });
});

describe('search dashboard: slowest routes by route', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await profilerApp({}, {}, (a) => {
      a.get('/items/:id', async (request) => ({ id: (request.params as { id: string }).id }));
      a.get('/items/:id/notes', async () => []);
    });
    for (const url of ['/items/1', '/items/2?x=1', '/items/%3Cb%3E', '/items/1/notes', '/items/1/nowhere']) await app.inject({ url, headers: { accept: 'application/json' } });
    await app.profiler!.settled();
  });
  after(() => app.close());

  test('requests to one route with different parameters are one row, named by its pattern; a path no route matches stays as it is', async () => {
    const body = (await app.inject({ url: '/_profiler/search?limit=100' })).body;
    const dash = body.slice(body.indexOf('<section class="pf-dashboard"'), body.indexOf('</section>'));
    const routes = [...dash.matchAll(/<tr><td class="mono">([^<]+)<\/td><td>(\d+)<\/td>/g)].map((m) => `${m[1]} ×${m[2]}`);
    assert.deepEqual(routes.sort(), ['GET /items/1/nowhere ×1', 'GET /items/:id ×3', 'GET /items/:id/notes ×1']);
  });
});
