import { describe, test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { BROWSER, allProfiles, profilerApp } from './profiler-app.ts';
import { MemoryProfileStorage } from '../../src/profiler/index.ts';
import type { ProfileStorage } from '../../src/profiler/index.ts';

describe('recording', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await profilerApp();
  });
  after(() => app.close());
  beforeEach(async () => {
    await app.profiler!.settled();
    await app.profiler!.storage.purge();
  });

  test('every response carries a 6-hex token and the absolute link to its profile', async () => {
    const res = await app.inject({ url: '/hello?x=1', headers: { host: 'shop.example:8443' } });
    assert.equal(res.statusCode, 200);
    const token = res.headers['x-debug-token'] as string;
    assert.match(token, /^[0-9a-f]{6}$/);
    assert.equal(res.headers['x-debug-token-link'], `http://shop.example:8443/_profiler/${token}`);
    const [profile] = await allProfiles(app);
    assert.equal(profile!.token, token);
    assert.equal(profile!.parent, null);
    assert.equal(profile!.method, 'GET');
    assert.equal(profile!.url, 'http://shop.example:8443/hello?x=1');
    assert.equal(profile!.ip, '127.0.0.1');
    assert.equal(profile!.statusCode, 200);
    assert.deepEqual(profile!.children, []);
    assert.deepEqual(Object.keys(profile!.collectors), ['request', 'response', 'time', 'cpu', 'exception', 'logs', 'db', 'security', 'router', 'api', 'http_client', 'events']);
  });

  test('tokens are unique: 300 requests, 300 distinct tokens', async () => {
    const tokens = new Set<string>();
    for (let i = 0; i < 300; i++) tokens.add((await app.inject({ url: '/hello' })).headers['x-debug-token'] as string);
    assert.equal(tokens.size, 300);
    assert.equal((await allProfiles(app)).length, 300);
  });

  test('one failing request yields two profiles: the request and its error sub-request, linked both ways', async () => {
    const res = await app.inject({ url: '/robots.txt', headers: { accept: BROWSER } });
    assert.equal(res.statusCode, 404);
    const parentToken = res.headers['x-debug-token'] as string;

    const listing = await app.inject({ url: '/_profiler/search' });
    assert.equal(listing.statusCode, 200);
    assert.match(listing.body, /<h2 class="pf-results-count">2 results found<\/h2>/);
    const rows = [...listing.body.matchAll(/<a class="mono token" href="\/_profiler\/([0-9a-f]{6})">/g)].map((m) => m[1]);
    assert.equal(rows.length, 2);
    const childToken = rows.find((t) => t !== parentToken)!;
    assert.notEqual(childToken, parentToken);
    assert.deepEqual(rows, [childToken, parentToken], 'newest first: the sub-request started after its parent');
    assert.match(listing.body, /sub-request<\/span>/);

    const parent = await app.inject({ url: `/_profiler/${parentToken}` });
    assert.ok(parent.body.includes(`Forwarded to <a href="/_profiler/${childToken}">${childToken}</a>`));
    const child = await app.inject({ url: `/_profiler/${childToken}` });
    assert.ok(child.body.includes(`Forwarded from <a href="/_profiler/${parentToken}">${parentToken}</a>`));

    const childJson = (await app.inject({ url: `/_profiler/${childToken}.json` })).json();
    assert.equal(childJson.parent, parentToken);
    assert.equal(childJson.statusCode, 404);
    assert.equal(childJson.collectors.request.subRequest.purpose, 'error');
    assert.deepEqual(childJson.collectors.exception.chain.map((e: { class: string }) => e.class), ['NotFoundHttpException', 'ResourceNotFoundException']);
    assert.deepEqual((await app.inject({ url: `/_profiler/${parentToken}.json` })).json().children, [childToken]);
  });

  test('latest is the newest main request, not its sub-request', async () => {
    await app.inject({ url: '/hello' });
    const failing = await app.inject({ url: '/nowhere', headers: { accept: BROWSER } });
    const page = await app.inject({ url: '/_profiler/latest' });
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes(`<strong class="token">${failing.headers['x-debug-token']}</strong>`));
    assert.ok(page.body.includes('No route found for &quot;GET /nowhere&quot;'), 'opens on the exception panel');
    assert.equal((await app.inject({ url: '/_profiler/latest.json' })).json().token, failing.headers['x-debug-token']);
  });

  test('an unknown token is a 404 page saying so', async () => {
    const res = await app.inject({ url: '/_profiler/abc123' });
    assert.equal(res.statusCode, 404);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.ok(res.body.includes('<h2>Token &quot;abc123&quot; not found.</h2>'));
    const json = await app.inject({ url: '/_profiler/abc123.json' });
    assert.equal(json.statusCode, 404);
    assert.equal(json.json().detail, 'Token "abc123" not found.');
    const latest = await app.inject({ url: '/_profiler/latest' });
    assert.equal(latest.statusCode, 404, 'an empty store has no latest profile');
    assert.ok(latest.body.includes('Token &quot;latest&quot; not found.'));
  });

  test('the profiler pages and CORS preflights are not profiled', async () => {
    const page = await app.inject({ url: '/_profiler/search' });
    assert.equal(page.headers['x-debug-token'], undefined);
    await app.inject({ method: 'OPTIONS', url: '/hello', headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET' } });
    assert.deepEqual(await allProfiles(app), []);
  });

  test('collectors record request, response, timeline and logs', async () => {
    const res = await app.inject({ method: 'POST', url: '/echo?page=2', payload: { title: 'Dune' } });
    const p = (await app.inject({ url: `/_profiler/${res.headers['x-debug-token']}.json` })).json();
    assert.equal(p.collectors.request.route, '/echo');
    assert.deepEqual(p.collectors.request.query, { page: '2' });
    assert.equal(p.collectors.request.body.text, '{\n  "title": "Dune"\n}');
    assert.equal(p.collectors.response.statusCode, 200);
    assert.equal(p.collectors.response.size, Buffer.byteLength(res.body));
    assert.equal(p.collectors.response.body.text, '{\n  "title": "Dune"\n}');
    const phases = p.collectors.time.phases.map((ph: { name: string }) => ph.name);
    assert.deepEqual(phases.slice(0, 5), ['observe', 'guard', 'firewall', 'parse', 'handler']);
    const messages = p.collectors.logs.records.map((r: { message: string }) => r.message);
    assert.ok(messages.includes('echo /echo?page=2'));
    assert.ok(messages.includes('POST /echo?page=2 200'), 'the request log line written after the response is in the profile');
  });

  test('request and response bodies are cut at PROFILER_MAX_BODY and marked truncated', async () => {
    const small = await profilerApp({ PROFILER_MAX_BODY: '64' });
    try {
      const res = await small.inject({ method: 'POST', url: '/echo', payload: { text: 'x'.repeat(500) } });
      await small.profiler!.settled();
      const p = await small.profiler!.read(res.headers['x-debug-token'] as string);
      const body = (p!.collectors.request as { body: { text: string; truncated: boolean; size: number } }).body;
      assert.equal(Buffer.byteLength(body.text), 64);
      assert.equal(body.truncated, true);
      // The size is the body's as received (Content-Length), not of a re-encoding.
      const size = Buffer.byteLength(JSON.stringify({ text: 'x'.repeat(500) }));
      assert.equal(body.size, size);
      const page = await small.inject({ url: `/_profiler/${p!.token}` });
      assert.ok(page.body.includes(`${size} bytes, truncated`));
      const response = (p!.collectors.response as { body: { text: string; truncated: boolean } }).body;
      assert.equal(Buffer.byteLength(response.text), 64);
      assert.equal(response.truncated, true);
    } finally {
      await small.close();
    }
  });
});

describe('storage failures', () => {
  test('a store that fails is logged and never fails the request', async () => {
    const broken: ProfileStorage = Object.assign(new MemoryProfileStorage({ maxProfiles: 10, ttlSeconds: 60 }), {
      write: async () => {
        throw new Error('disk on fire');
      },
      find: async () => {
        throw new Error('disk on fire');
      },
    });
    const app = await profilerApp({}, { storage: broken });
    try {
      const res = await app.inject({ url: '/hello' });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { hello: 'world' });
      assert.match(res.headers['x-debug-token'] as string, /^[0-9a-f]{6}$/);
      await app.profiler!.settled();
    } finally {
      await app.close();
    }
  });
});

describe('retention through the app', () => {
  test('PROFILER_MAX_PROFILES keeps only the newest profiles', async () => {
    const app = await profilerApp({ PROFILER_MAX_PROFILES: '3' });
    try {
      const tokens: string[] = [];
      for (let i = 0; i < 5; i++) tokens.push((await app.inject({ url: `/hello?n=${i}` })).headers['x-debug-token'] as string);
      const kept = (await allProfiles(app)).map((p) => p!.token);
      assert.deepEqual(kept, tokens.slice(2).reverse());
      assert.equal((await app.inject({ url: `/_profiler/${tokens[0]}` })).statusCode, 404);
    } finally {
      await app.close();
    }
  });
});

describe('production', () => {
  test('has no profiler at all: no routes, no headers, no recording', async () => {
    const app = await profilerApp({ NODE_ENV: 'production', JWT_SECRET: 'production-secret-production-secret-0123' });
    try {
      assert.equal(app.profiler, undefined);
      const res = await app.inject({ url: '/hello' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-debug-token'], undefined);
      assert.equal(res.headers['x-debug-token-link'], undefined);
      assert.equal(res.headers['server-timing'], undefined, 'no timings are told in production');
      for (const url of ['/_profiler/latest', '/_profiler/', '/_profiler/search', '/_profiler/search_bar', '/_profiler/abc123/exception.css']) {
        const page = await app.inject({ url });
        assert.equal(page.statusCode, 404, url);
        assert.equal(page.json().detail, `No route found for "GET ${url}"`);
      }
    } finally {
      await app.close();
    }
  });
});
