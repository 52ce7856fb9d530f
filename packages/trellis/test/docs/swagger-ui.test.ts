/**
 * Swagger UI served by the app itself: the page (no inline script, a CSP, data attributes escaped),
 * its static files with the right types, caching and compression, the fixed file list, and `/`
 * answering browsers with the UI while API clients keep the entrypoint.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../src/app/create-app.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { bookshopApp } from './bookshop-app.ts';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
let app: FastifyInstance;
before(async () => {
  app = await bookshopApp();
});
after(() => app.close());

test('/docs is the Swagger UI page: local assets only, no inline script, a strict CSP', async () => {
  const res = await app.inject({ url: '/docs', headers: { accept: BROWSER_ACCEPT } });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(String(res.headers['content-security-policy']), /script-src 'self';/);
  assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/);
  assert.equal(res.headers['x-frame-options'], 'DENY');
  assert.equal(res.headers['referrer-policy'], 'no-referrer');
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.match(String(res.headers.vary), /\bAccept\b/);
  assert.match(res.body, /<title>Bookshop – API documentation<\/title>/);
  assert.match(res.body, /<div id="swagger-ui" data-url="\/docs\.json" data-login-path="\/auth"><\/div>/);
  const scripts = [...res.body.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
  assert.deepEqual(scripts.map((m) => m[2]), ['', ''], 'no inline script');
  const urls = [...res.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
  assert.ok(urls.every((u) => u.startsWith('/')), `same-origin only: ${urls.join(' ')}`);
  assert.deepEqual(urls.filter((u) => u.startsWith('/docs/assets/')).map((u) => u.split('?')[0]), ['/docs/assets/favicon-32x32.png', '/docs/assets/swagger-ui.css', '/docs/assets/trellis-docs.css', '/docs/assets/swagger-ui-bundle.js', '/docs/assets/trellis-docs.js']);
  for (const url of urls.filter((u) => u.startsWith('/docs/assets/'))) {
    const asset = await app.inject({ url });
    assert.equal(asset.statusCode, 200, url);
    assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable', url);
  }
});

test('the name is escaped in the page', async () => {
  const other = await createApp({ config: testConfig({ PROFILER: '0' }), tls: null, name: '<script>alert(1)</script>' });
  try {
    const body = (await other.inject({ url: '/docs' })).body;
    assert.ok(!body.includes('<script>alert'));
    assert.ok(body.includes('&lt;script&gt;alert(1)&lt;/script&gt; – API documentation'));
    assert.equal((await other.inject({ url: '/docs.json' })).json().info.title, '<script>alert(1)</script>');
  } finally {
    await other.close();
  }
});

test('assets: content types, ETag and 304, gzip when accepted, bare URLs revalidated', async () => {
  const types: Record<string, string> = {
    'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
    'trellis-docs.js': 'text/javascript; charset=utf-8',
    'swagger-ui.css': 'text/css; charset=utf-8',
    'favicon-32x32.png': 'image/png',
    'swagger-ui-bundle.js.map': 'application/json; charset=utf-8',
  };
  for (const [file, type] of Object.entries(types)) {
    const res = await app.inject({ url: `/docs/assets/${file}` });
    assert.equal(res.statusCode, 200, file);
    assert.equal(res.headers['content-type'], type, file);
    assert.equal(res.headers['cache-control'], 'public, max-age=0, must-revalidate');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    const again = await app.inject({ url: `/docs/assets/${file}`, headers: { 'if-none-match': String(res.headers.etag) } });
    assert.equal(again.statusCode, 304, file);
    assert.equal(again.body, '');
  }
  const plain = await app.inject({ url: '/docs/assets/swagger-ui-bundle.js' });
  const gz = await app.inject({ url: '/docs/assets/swagger-ui-bundle.js', headers: { 'accept-encoding': 'gzip, br' } });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.match(String(gz.headers.vary), /Accept-Encoding/);
  assert.ok(gz.rawPayload.length < plain.rawPayload.length / 2);
  assert.deepEqual(gunzipSync(gz.rawPayload), plain.rawPayload);
  // RFC 9110 §8.8.3: other bytes, another strong tag; each revalidates as itself.
  assert.notEqual(gz.headers.etag, plain.headers.etag);
  assert.match(String(gz.headers.etag), /^"[A-Za-z0-9_-]+-gzip"$/);
  const gzAgain = await app.inject({ url: '/docs/assets/swagger-ui-bundle.js', headers: { 'accept-encoding': 'gzip', 'if-none-match': String(gz.headers.etag) } });
  assert.deepEqual([gzAgain.statusCode, gzAgain.headers.etag], [304, gz.headers.etag]);
  const identityWithGzipTag = await app.inject({ url: '/docs/assets/swagger-ui-bundle.js', headers: { 'if-none-match': String(gz.headers.etag) } });
  assert.deepEqual([identityWithGzipTag.statusCode, identityWithGzipTag.headers['content-encoding']], [200, undefined]);
  assert.equal((await app.inject({ url: '/docs/assets/favicon-32x32.png', headers: { 'accept-encoding': 'gzip' } })).headers['content-encoding'], undefined);
  // RFC 9110 §12.5.3: a weight of 0 refuses gzip; the client gets the bytes as they are.
  for (const refusal of ['gzip;q=0', 'gzip;q=0, identity', '*;q=0, identity', 'br']) {
    const res = await app.inject({ url: '/docs/assets/swagger-ui-bundle.js', headers: { 'accept-encoding': refusal } });
    assert.equal(res.headers['content-encoding'], undefined, refusal);
    assert.deepEqual(res.rawPayload, plain.rawPayload, refusal);
  }
});

test('only the listed files: anything else is the routing 404', async () => {
  for (const url of ['/docs/assets/index.html', '/docs/assets/package.json', '/docs/assets/..%2F..%2Fpackage.json', '/docs/assets/__proto__', '/docs/assets/constructor']) {
    const res = await app.inject({ url, headers: { accept: 'application/json' } });
    assert.equal(res.statusCode, 404, url);
    assert.equal(res.json().detail, `No route found for "GET ${url}"`);
  }
});

test('/ gives browsers the UI and API clients the entrypoint; both vary on Accept', async () => {
  const html = await app.inject({ url: '/', headers: { accept: BROWSER_ACCEPT } });
  assert.equal(html.statusCode, 200);
  assert.equal(html.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(html.body, /id="swagger-ui"/);
  assert.match(String(html.headers.vary), /\bAccept\b/);
  for (const accept of ['*/*', 'application/ld+json', 'application/json, text/html;q=0.5']) {
    const res = await app.inject({ url: '/', headers: { accept } });
    assert.notEqual(res.headers['content-type'], 'text/html; charset=utf-8', accept);
    assert.equal(res.json().book, '/books', accept);
  }
  assert.equal((await app.inject({ method: 'HEAD', url: '/', headers: { accept: 'text/html' } })).headers['content-type'], 'text/html; charset=utf-8');
  assert.equal((await app.inject({ method: 'POST', url: '/', headers: { accept: 'text/html' } })).statusCode, 405);
});

test('in production the docs stay (without the Basic scheme) and show no debug output', async () => {
  const prod = await bookshopApp(testConfig({ NODE_ENV: 'production', APP_DEBUG: '0' }));
  try {
    const doc = (await prod.inject({ url: '/docs.json' })).json();
    assert.deepEqual(Object.keys(doc.components.securitySchemes), ['bearerAuth', 'apiKey']);
    assert.equal((await prod.inject({ url: '/docs' })).statusCode, 200);
    const missing = await prod.inject({ url: '/docs/assets/nope.js', headers: { accept: 'application/json' } });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().exceptions, undefined);
  } finally {
    await prod.close();
  }
});
