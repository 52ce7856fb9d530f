import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../src/index.ts';
import { testConfig } from '../../src/testing/index.ts';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('routing errors (seed §4 rules 1-2, §7)', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await createApp({ config: testConfig({ PROFILER: '0' }), tls: null });
    app.get('/some/path', async () => ({ ok: true }));
    app.post('/things', async () => ({ ok: true }));
    app.patch('/things', async () => ({ ok: true }));
    app.get('/things/:id', async () => ({ ok: true }));
    await app.ready();
  });
  after(() => app.close());

  for (const path of ['/robots.txt', '/.env', '/app/.env', '/laravel/.env', '/admin/.env']) {
    test(`GET ${path} is 404 with the exact message, as problem+json and as HTML`, async () => {
      const json = await app.inject({ method: 'GET', url: path, headers: { accept: 'application/json' } });
      assert.equal(json.statusCode, 404);
      assert.equal(json.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(json.json().detail, `No route found for "GET ${path}"`);
      assert.equal(json.json().title, 'Not Found');
      assert.equal(json.json().status, 404);

      const html = await app.inject({ method: 'GET', url: path, headers: { accept: BROWSER } });
      assert.equal(html.statusCode, 404);
      assert.equal(html.headers['content-type'], 'text/html; charset=utf-8');
      assert.ok(html.body.includes(`<title>No route found for &quot;GET ${path}&quot; (404 Not Found)</title>`), html.body.slice(0, 300));
    });
  }

  test('the message has the path only: no query string, no scheme or host', async () => {
    const res = await app.inject({ method: 'GET', url: '/robots.txt?x=1&y=2', headers: { host: 'example.com' } });
    assert.equal(res.json().detail, 'No route found for "GET /robots.txt"');
  });

  test('a Referer header adds the (from "…") suffix', async () => {
    const res = await app.inject({ method: 'GET', url: '/robots.txt', headers: { referer: 'https://example.com/page?q=1' } });
    assert.equal(res.json().detail, 'No route found for "GET /robots.txt" (from "https://example.com/page?q=1")');
  });

  test('404 carries a chain of two exceptions: the HTTP one, then the routing one', async () => {
    const res = await app.inject({ method: 'GET', url: '/robots.txt' });
    const chain = res.json().exceptions as { class: string; message: string }[];
    assert.deepEqual(
      chain.map((e) => [e.class, e.message]),
      [
        ['NotFoundHttpException', 'No route found for "GET /robots.txt"'],
        ['ResourceNotFoundException', 'No routes found for "/robots.txt".'],
      ],
    );
    const html = await app.inject({ method: 'GET', url: '/robots.txt', headers: { accept: BROWSER } });
    assert.ok(html.body.includes('<h2>Exceptions <small>(2)</small></h2>'));
    assert.ok(html.body.includes('No routes found for &quot;/robots.txt&quot;.'));
  });

  test('a known path with another method is 405 with Allow and the exact message', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/some/path' });
    assert.equal(res.statusCode, 405);
    assert.equal(res.headers.allow, 'GET, HEAD');
    assert.equal(res.json().detail, 'No route found for "DELETE /some/path": Method Not Allowed (Allow: GET, HEAD)');
    assert.deepEqual(
      (res.json().exceptions as { class: string }[]).map((e) => e.class),
      ['MethodNotAllowedHttpException', 'MethodNotAllowedException'],
    );
  });

  test('Allow lists every method of the path in a stable order, and parameters match', async () => {
    const res = await app.inject({ method: 'PUT', url: '/things' });
    assert.equal(res.statusCode, 405);
    assert.equal(res.headers.allow, 'POST, PATCH');
    assert.equal(res.json().detail, 'No route found for "PUT /things": Method Not Allowed (Allow: POST, PATCH)');
    const item = await app.inject({ method: 'DELETE', url: '/things/42' });
    assert.equal(item.statusCode, 405);
    assert.equal(item.headers.allow, 'GET, HEAD');
  });

  test('HEAD is answered wherever GET is, and is 404 elsewhere', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/some/path' });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    const missing = await app.inject({ method: 'HEAD', url: '/robots.txt' });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.body, '');
  });

  test('the entrypoint / answers GET and HEAD', async () => {
    assert.equal((await app.inject({ method: 'GET', url: '/' })).statusCode, 200);
    assert.equal((await app.inject({ method: 'HEAD', url: '/' })).statusCode, 200);
    const post = await app.inject({ method: 'POST', url: '/' });
    assert.equal(post.statusCode, 405);
    assert.equal(post.headers.allow, 'GET, HEAD');
  });

  test('error responses vary on Accept', async () => {
    const res = await app.inject({ method: 'GET', url: '/robots.txt' });
    assert.match(String(res.headers.vary), /Accept/);
  });
});
