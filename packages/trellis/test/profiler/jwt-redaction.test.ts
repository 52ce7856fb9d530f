/**
 * A bearer token (a JWT) is redacted by its value wherever it travels: under a query parameter,
 * a header, a Referer's query or a body member whose name no redaction key matches; from the
 * stored profile, every page and JSON, the search index, and the request log line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { profilerApp, allRecords } from './profiler-app.ts';
import { createApp, createLogger } from '../../src/index.ts';
import { testConfig } from '../../src/testing/index.ts';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const JWT = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: '2', roles: ['ROLE_USER'] })}.c2lnbmF0dXJlLWNhbmFyeS02OGQy`;
const SIGNATURE = 'c2lnbmF0dXJlLWNhbmFyeS02OGQy';

test('a JWT under unlisted names is in no stored profile, page or search result', async (t) => {
  const app = await profilerApp();
  t.after(() => app.close());
  const sent = [
    await app.inject({ url: `/hello?q=${JWT}`, headers: { 'x-foo': JWT, referer: `http://x.test/?t=${JWT}` } }),
    await app.inject({ method: 'POST', url: '/echo', payload: { note: JWT, nested: [{ deep: `see ${JWT} here` }] } }),
  ];
  const tokens = sent.map((r) => r.headers['x-debug-token'] as string);
  for (const record of await allRecords(app)) assert.ok(!JSON.stringify(record).includes(SIGNATURE), JSON.stringify(record).slice(0, 300));
  const search = await app.inject({ url: '/_profiler/search.json?limit=50' });
  assert.ok(!search.body.includes(SIGNATURE));
  assert.ok(search.body.includes('/hello?q=[redacted]'), search.body.slice(0, 400));
  for (const token of tokens) {
    for (const url of [`/_profiler/${token}.json`, `/_profiler/${token}`, ...['request', 'response', 'logs', 'api', 'events', 'router'].map((p) => `/_profiler/${token}?panel=${p}`)]) {
      const page = await app.inject({ url });
      assert.equal(page.statusCode, 200, url);
      assert.ok(!page.body.includes(SIGNATURE), url);
    }
  }
  const request = (await app.inject({ url: `/_profiler/${tokens[0]}.json` })).json() as { request: { headers: Record<string, string> } };
  assert.equal(JSON.stringify(request).includes('"x-foo":"[redacted]"'), true);
});

test('the request log line has it redacted, with the value found once removed wherever else it is', async (t) => {
  let out = '';
  const destination = new Writable({ write: (chunk, _e, cb) => ((out += chunk), cb()) });
  const logger = createLogger({ level: 'info', captureRequestRecords: false, destination });
  const app = await createApp({ config: testConfig({ LOG_LEVEL: 'info', NODE_ENV: 'production', PROFILER: '0' }), tls: null, logger });
  app.get('/books/:id', async () => ({}));
  await app.ready();
  t.after(() => app.close());
  await app.inject({ url: `/books/2?jwt=${JWT}`, headers: { authorization: `Bearer ${JWT}` } });
  await app.inject({ url: '/books/2?password=S3cr3t&pwd=S3cr3t' });
  assert.ok(out.includes('"url":"/books/2?jwt=[redacted]"'), out);
  assert.ok(out.includes('"url":"/books/2?password=[redacted]&pwd=[redacted]"'), out);
  assert.ok(!out.includes(SIGNATURE) && !out.includes('S3cr3t'), out);
});

test('a JWT only the response carries (a token endpoint answering {"access": …}) is redacted there too, in JSON, in text and past the parse limit', async (t) => {
  const RESPONSE_SIGNATURE = 'cmVzcG9uc2Utb25seS1zaWduYXR1cmU';
  const issued = `${b64({ alg: 'HS256' })}.${b64({ sub: '7' })}.${RESPONSE_SIGNATURE}`;
  const app = await profilerApp({ PROFILER_MAX_BODY: '1kb' }, {}, (a) => {
    a.get('/token', async () => ({ access: issued, refresh: issued }));
    a.get('/token.txt', async (_request, reply) => reply.type('text/plain').send(`token: ${issued}`));
    // Over four times PROFILER_MAX_BODY: never parsed, only cut.
    a.get('/token-large', async () => ({ access: issued, padding: 'p'.repeat(8 * 1024) }));
  });
  t.after(() => app.close());
  const tokens: string[] = [];
  for (const url of ['/token', '/token.txt', '/token-large']) {
    const res = await app.inject({ url });
    assert.ok(res.body.includes(RESPONSE_SIGNATURE), 'the client gets its token');
    tokens.push(res.headers['x-debug-token'] as string);
  }
  for (const record of await allRecords(app)) assert.ok(!JSON.stringify(record).includes(RESPONSE_SIGNATURE), JSON.stringify(record).slice(0, 300));
  for (const token of tokens) {
    for (const url of [`/_profiler/${token}.json`, `/_profiler/${token}?panel=response`, `/_profiler/${token}.har`]) {
      const page = await app.inject({ url });
      assert.equal(page.statusCode, 200, url);
      assert.ok(!page.body.includes(RESPONSE_SIGNATURE), url);
    }
  }
  const json = (await app.inject({ url: `/_profiler/${tokens[0]}.json` })).json() as { response: { body: { text: string } } };
  assert.ok(JSON.stringify(json).includes('[redacted]'), JSON.stringify(json).slice(0, 400));
});

test('a percent-encoded JWT in the URL, or one read as a format extension, is in no stored profile or page', async (t) => {
  const app = await profilerApp({}, {}, (a) => a.get('/books/:id', async () => ({})));
  t.after(() => app.close());
  const escapedE = `%65${JWT.slice(1)}`;
  const escapedDots = JWT.replaceAll('.', '%2E');
  const tokens: string[] = [];
  for (const url of [`/hello?q=${escapedE}`, `/hello?q=${escapedDots}`, `/books/${escapedDots}`, `/books/${JWT}`]) {
    tokens.push((await app.inject({ url })).headers['x-debug-token'] as string);
  }
  for (const record of await allRecords(app)) assert.ok(!JSON.stringify(record).includes(SIGNATURE), JSON.stringify(record).slice(0, 400));
  const search = await app.inject({ url: '/_profiler/search.json?limit=50' });
  assert.ok(!search.body.includes(SIGNATURE), search.body.slice(0, 400));
  for (const token of tokens) {
    for (const url of [`/_profiler/${token}.json`, `/_profiler/${token}`, ...['request', 'exception', 'logs', 'events'].map((p) => `/_profiler/${token}?panel=${p}`)]) {
      const page = await app.inject({ url });
      assert.ok(!page.body.includes(SIGNATURE), url);
    }
  }
});
