import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../src/app/create-app.ts';
import { subscribe } from '../../src/observe/channels.ts';
import { testConfig } from '../../src/testing/test-config.ts';

let app: FastifyInstance;
let custom: FastifyInstance;
let handled = 0;
before(async () => {
  app = await createApp({ config: testConfig(), tls: null });
  app.get('/books', async (_request, reply) => {
    handled++;
    reply.header('link', '</docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"');
    return { books: [] };
  });
  app.post('/books', async () => ({ created: true }));
  app.get('/admin/stats', async () => ({ ok: true }));
  await app.ready();
  custom = await createApp({ config: testConfig({ CORS_ALLOW_ORIGIN: '^https://shop\\.example$' }), tls: null });
  custom.get('/books', async () => ({ books: [] }));
  await custom.ready();
});
after(async () => {
  await app.close();
  await custom.close();
});

const preflight = (origin: string, url = '/books', target = app) =>
  target.inject({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' } });
const corsHeaders = (headers: Record<string, unknown>) => Object.keys(headers).filter((h) => h.startsWith('access-control-')).sort();

test('a preflight from an allowed origin is answered 204 with the configured CORS headers', async () => {
  const r = await preflight('http://localhost:3000');
  assert.equal(r.statusCode, 204);
  assert.equal(r.body, '');
  assert.equal(r.headers['access-control-allow-origin'], 'http://localhost:3000');
  assert.equal(r.headers['access-control-allow-methods'], 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
  // What the framework implements, and nothing else (no Preload, no Fields).
  assert.equal(r.headers['access-control-allow-headers'], 'Authorization, Content-Type, If-Match, If-None-Match, X-API-Key');
  assert.equal(r.headers['access-control-expose-headers'], 'Link, ETag, Location, Retry-After, X-Debug-Token, X-Debug-Token-Link');
  assert.equal(r.headers['access-control-max-age'], '3600');
  assert.equal(r.headers['access-control-allow-credentials'], undefined);
  assert.equal(r.headers.vary, 'Origin');
  assert.equal((await preflight('http://127.0.0.1:8443')).headers['access-control-allow-origin'], 'http://127.0.0.1:8443');
  assert.equal((await preflight('https://localhost')).headers['access-control-allow-origin'], 'https://localhost');
});

test('a preflight is answered before routing, authentication and handlers', async () => {
  const before = handled;
  const events: string[] = [];
  const offAuth = subscribe('authentication', (e) => events.push(e.authenticator));
  const offDecision = subscribe('accessDecision', (e) => events.push(e.attribute));
  try {
    const r = await preflight('http://localhost:3000', '/admin/stats');
    assert.equal(r.statusCode, 204, 'no 401 from the /admin path rule');
    assert.equal(r.headers['x-debug-token'], undefined, 'not profiled');
    assert.equal((await preflight('http://localhost:3000', '/nowhere')).statusCode, 204, 'no 404 either');
  } finally {
    offAuth();
    offDecision();
  }
  assert.deepEqual(events, []);
  assert.equal(handled, before);
});

test('a disallowed origin gets no CORS headers at all, on preflights and actual requests', async () => {
  for (const origin of ['https://evil.test', 'http://localhost.evil.test', 'http://localhost:3000.evil.test', 'null']) {
    const pre = await preflight(origin);
    assert.deepEqual(corsHeaders(pre.headers), [], origin);
    assert.notEqual(pre.statusCode, 204, 'not answered as a preflight');
    assert.equal(pre.statusCode, 405);
    assert.equal(pre.headers.allow, 'GET, HEAD, POST');
    const actual = await app.inject({ url: '/books', headers: { origin } });
    assert.equal(actual.statusCode, 200);
    assert.deepEqual(corsHeaders(actual.headers), [], origin);
    assert.equal(actual.headers.vary, 'Origin', 'the answer still depends on Origin, for caches');
  }
});

test('a preflight for a method no cross-origin request may use is refused as a disallowed origin\'s is', async () => {
  for (const method of ['FOO BAR', 'patch', 'TRACE', 'CONNECT', '']) {
    const pre = await app.inject({ method: 'OPTIONS', url: '/books', headers: { origin: 'http://localhost:3000', 'access-control-request-method': method } });
    assert.deepEqual(corsHeaders(pre.headers), [], JSON.stringify(method));
    assert.equal(pre.statusCode, 405, JSON.stringify(method));
  }
  const ok = await app.inject({ method: 'OPTIONS', url: '/books', headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'PATCH' } });
  assert.equal(ok.statusCode, 204);
  assert.equal(ok.headers['access-control-allow-origin'], 'http://localhost:3000');
});

test('an actual request from an allowed origin gets the echoed origin, Vary: Origin and the exposed headers', async () => {
  const r = await app.inject({ url: '/books', headers: { origin: 'http://localhost:3000' } });
  assert.equal(r.statusCode, 200);
  assert.equal(r.headers['access-control-allow-origin'], 'http://localhost:3000');
  assert.equal(r.headers['access-control-expose-headers'], 'Link, ETag, Location, Retry-After, X-Debug-Token, X-Debug-Token-Link');
  assert.equal(r.headers['access-control-allow-methods'], undefined, 'preflight-only headers stay on preflights');
  assert.equal(r.headers.vary, 'Origin');
  assert.match(r.headers['x-debug-token'] as string, /^[0-9a-f]{6}$/, 'set by the profiler in debug');
  assert.equal(r.headers['x-debug-token-link'], `http://localhost:80/_profiler/${r.headers['x-debug-token']}`);
  const error = await app.inject({ url: '/nowhere', headers: { origin: 'http://localhost:3000' } });
  assert.equal(error.statusCode, 404);
  assert.equal(error.headers['access-control-allow-origin'], 'http://localhost:3000', 'errors are readable cross-origin too');
  assert.match(error.headers.vary as string, /Origin/);
});

test('requests without Origin and OPTIONS without Access-Control-Request-Method are not CORS preflights', async () => {
  const plain = await app.inject({ url: '/books' });
  assert.deepEqual(corsHeaders(plain.headers), []);
  const options = await app.inject({ method: 'OPTIONS', url: '/books', headers: { origin: 'http://localhost:3000' } });
  assert.equal(options.statusCode, 405);
  assert.equal(options.headers.allow, 'GET, HEAD, POST');
  const noOrigin = await app.inject({ method: 'OPTIONS', url: '/books', headers: { 'access-control-request-method': 'POST' } });
  assert.equal(noOrigin.statusCode, 405);
});

test('unknown paths keep their 404: no catch-all OPTIONS route', async () => {
  const r = await app.inject({ url: '/robots.txt' });
  assert.equal(r.statusCode, 404);
  assert.equal(r.json().detail, 'No route found for "GET /robots.txt"');
});

test('CORS_ALLOW_ORIGIN replaces the default origins', async () => {
  assert.equal((await preflight('https://shop.example', '/books', custom)).headers['access-control-allow-origin'], 'https://shop.example');
  assert.deepEqual(corsHeaders((await preflight('http://localhost:3000', '/books', custom)).headers), []);
});

test('CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS, CORS_ALLOW_CREDENTIALS and CORS_MAX_AGE configure the answers', async () => {
  const configured = await createApp({
    config: testConfig({ CORS_ALLOW_HEADERS: 'Authorization, X-Tenant', CORS_EXPOSE_HEADERS: 'Link, X-Request-Id', CORS_ALLOW_CREDENTIALS: '1', CORS_MAX_AGE: '10m' }),
    tls: null,
  });
  configured.get('/books', async () => ({ books: [] }));
  try {
    const pre = await preflight('http://localhost:3000', '/books', configured);
    assert.equal(pre.statusCode, 204);
    assert.equal(pre.headers['access-control-allow-headers'], 'Authorization, X-Tenant');
    assert.equal(pre.headers['access-control-allow-credentials'], 'true');
    assert.equal(pre.headers['access-control-max-age'], '600');
    assert.equal(pre.headers['access-control-allow-origin'], 'http://localhost:3000', 'with credentials the origin is echoed, never *');
    const actual = await configured.inject({ url: '/books', headers: { origin: 'http://localhost:3000' } });
    assert.equal(actual.headers['access-control-expose-headers'], 'Link, X-Request-Id');
    assert.equal(actual.headers['access-control-allow-credentials'], 'true');
  } finally {
    await configured.close();
  }
  const none = testConfig({ CORS_EXPOSE_HEADERS: 'none', CORS_ALLOW_HEADERS: '' });
  assert.deepEqual([none.cors.exposeHeaders, none.cors.allowHeaders], [[], []]);
});

test('bad CORS settings are refused with exact messages', () => {
  assert.throws(() => testConfig({ CORS_ALLOW_HEADERS: 'Authorization, X Tenant' }), { name: 'ConfigError', message: 'CORS_ALLOW_HEADERS: expected header names separated by commas, got "X Tenant"' });
  assert.throws(() => testConfig({ CORS_EXPOSE_HEADERS: 'Link,,ETag' }), { name: 'ConfigError', message: 'CORS_EXPOSE_HEADERS: expected header names separated by commas, got ""' });
  assert.throws(() => testConfig({ CORS_MAX_AGE: 'forever' }), { name: 'ConfigError', message: 'CORS_MAX_AGE: expected a duration such as 3600, 30m, 12h or 2d, got "forever"' });
  assert.throws(() => testConfig({ CORS_ALLOW_CREDENTIALS: 'maybe' }), { name: 'ConfigError' });
});
