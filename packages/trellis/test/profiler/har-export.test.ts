/**
 * HAR export (issue 17, item 4): `/_profiler/<token>.har` is HAR 1.2 (checked against the HAR
 * schema), made from the stored profile, so a canary secret sent in every place a request can carry
 * one is not in it; outgoing calls are entries of their own; an unknown token is the exact 404.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Har } from 'har-format';
import { createApp } from '../../src/app/create-app.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { BROWSER, profilerApp } from './profiler-app.ts';

const validator = createRequire(import.meta.url)('har-validator') as { har(data: unknown): Promise<unknown> };
const CANARY = 'har-canary-5d21c9';

describe('HAR export', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await profilerApp({}, {}, (a) => {
      // A form parser of the app's own (the kernel answers 415 to forms): the body stays text.
      a.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, body));
      a.post('/form', async () => ({ ok: true }));
      a.get('/login-cookie', async (_request, reply) => reply.header('set-cookie', [`sid=${CANARY}-set; Path=/; HttpOnly; Secure`, 'theme=dark; Path=/']).send({ ok: true }));
    });
  });
  after(() => app.close());

  async function har(token: string) {
    await app.profiler!.settled();
    return app.inject({ url: `/_profiler/${token}.har` });
  }

  test('a POST with query, cookies, credentials and a JSON body: a valid HAR 1.2 entry, secrets redacted', async () => {
    const payload = JSON.stringify({ title: 'Dune', password: `${CANARY}-pw`, nested: { client_secret: `${CANARY}-secret` } });
    const res = await app.inject({
      method: 'POST',
      url: `/echo?token=${CANARY}-q&page=1&fields[books]=title`,
      headers: { 'content-type': 'application/json', cookie: `sid=${CANARY}-cookie; theme=dark`, 'x-session-id': `${CANARY}-key`, 'x-request-id': 'r-42' },
      payload,
    });
    assert.equal(res.statusCode, 200);
    const token = res.headers['x-debug-token'] as string;
    const file = await har(token);
    assert.equal(file.statusCode, 200);
    assert.equal(file.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(file.headers['content-disposition'], `attachment; filename="trellis-${token}.har"`);
    assert.match(String(file.headers['content-security-policy']), /default-src 'none'/);
    assert.equal(file.body.includes(CANARY), false, 'no canary in the HAR');
    const page = await app.inject({ url: `/_profiler/${token}`, headers: { accept: BROWSER } });
    assert.ok(page.body.includes(`<li><a href="/_profiler/${token}.har" download>HAR</a></li>`), 'the profile page links it');

    const doc = JSON.parse(file.body) as Har;
    await validator.har(doc);
    // The schema check bites: an entry without its required fields is refused.
    await assert.rejects(validator.har({ log: { ...doc.log, entries: [{ ...doc.log.entries[0], request: undefined }] } }));
    assert.equal(doc.log.version, '1.2');
    assert.equal(doc.log.creator.name, 'Trellis profiler');
    assert.equal(doc.log.entries.length, 1);
    assert.deepEqual(doc.log.pages?.map((p) => p.id), [token]);
    const [entry] = doc.log.entries;
    assert.equal(entry!.pageref, token);
    const { request, response } = entry!;
    assert.equal(request.method, 'POST');
    assert.equal(request.url, 'http://localhost:80/echo?token=%5Bredacted%5D&page=1&fields%5Bbooks%5D=title');
    assert.equal(request.httpVersion, 'HTTP/1.1');
    assert.deepEqual(request.queryString, [{ name: 'token', value: '[redacted]' }, { name: 'page', value: '1' }, { name: 'fields[books]', value: 'title' }]);
    const header = (name: string) => request.headers.filter((h) => h.name === name).map((h) => h.value);
    assert.deepEqual(header('cookie'), ['[redacted]']);
    assert.deepEqual(header('x-session-id'), ['[redacted]']);
    assert.deepEqual(header('x-request-id'), ['r-42']);
    assert.deepEqual(request.cookies, [{ name: 'sid', value: '[redacted]' }, { name: 'theme', value: '[redacted]' }]);
    assert.equal(request.postData?.mimeType, 'application/json');
    const sent = JSON.parse(request.postData!.text!) as Record<string, unknown>;
    assert.deepEqual(sent, { title: 'Dune', password: '[redacted]', nested: { client_secret: '[redacted]' } });
    assert.equal(request.bodySize, Buffer.byteLength(payload));

    assert.equal(response.status, 200);
    assert.equal(response.statusText, 'OK');
    assert.equal(response.content.mimeType, 'application/json; charset=utf-8');
    assert.equal(response.content.size, Buffer.byteLength(res.body));
    // The response body as sent (compact), its echoed secrets redacted.
    assert.deepEqual(JSON.parse(response.content.text!), { title: 'Dune', password: '[redacted]', nested: { client_secret: '[redacted]' } });
    assert.ok(response.headers.some((h) => h.name === 'x-debug-token' && h.value === token));
    assert.equal(entry!.timings.wait, entry!.time);
    assert.equal(entry!.startedDateTime, new Date((await app.profiler!.read(token))!.time).toISOString());
  });

  test('a form body has its pairs as params; Set-Cookie becomes redacted HAR cookies with their attributes', async () => {
    const form = await app.inject({ method: 'POST', url: '/form', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `title=Dune&password=${CANARY}-f` });
    assert.equal(form.statusCode, 200);
    const cookie = await app.inject({ url: '/login-cookie' });
    const formHar = JSON.parse((await har(form.headers['x-debug-token'] as string)).body) as Har;
    const cookieHar = JSON.parse((await har(cookie.headers['x-debug-token'] as string)).body) as Har;
    await validator.har(formHar);
    await validator.har(cookieHar);
    const postData = formHar.log.entries[0]!.request.postData!;
    assert.equal(postData.mimeType, 'application/x-www-form-urlencoded');
    assert.deepEqual(postData.params, [{ name: 'title', value: 'Dune' }, { name: 'password', value: '[redacted]' }]);
    assert.deepEqual(cookieHar.log.entries[0]!.response.cookies, [
      { name: 'sid', value: '[redacted]', path: '/', httpOnly: true, secure: true },
      { name: 'theme', value: '[redacted]', path: '/' },
    ]);
    assert.equal(JSON.stringify([formHar, cookieHar]).includes(CANARY), false);
  });

  test('an error page (a profile with a sub-request) and latest.har are valid HAR too', async () => {
    const missing = await app.inject({ url: '/missing?x=1' });
    assert.equal(missing.statusCode, 404);
    const doc = JSON.parse((await har(missing.headers['x-debug-token'] as string)).body) as Har;
    await validator.har(doc);
    assert.equal(doc.log.entries.length, 1, 'the error rendering is not an HTTP exchange of its own');
    assert.equal(doc.log.entries[0]!.response.status, 404);
    assert.equal(doc.log.entries[0]!.response.statusText, 'Not Found');
    assert.equal(doc.log.entries[0]!.request.postData, undefined);
    const latest = await app.inject({ url: '/_profiler/latest.har' });
    assert.equal(latest.statusCode, 200);
    assert.equal(latest.headers['content-disposition'], `attachment; filename="trellis-${missing.headers['x-debug-token']}.har"`);
  });

  test('an unknown or malformed token is a 404 with the exact message', async () => {
    for (const token of ['abcdef', 'nope', '%3Cscript%3E']) {
      const res = await app.inject({ url: `/_profiler/${token}.har`, headers: { accept: 'application/problem+json' } });
      assert.equal(res.statusCode, 404, token);
      assert.equal(res.json().detail, `Token "${decodeURIComponent(token)}" not found.`, token);
      assert.equal(res.headers['content-disposition'], undefined);
    }
  });

  test('a client the gate refuses gets the ordinary 404, not the HAR', async () => {
    const res = await app.inject({ url: '/hello' });
    await app.profiler!.settled();
    const denied = await app.inject({ url: `/_profiler/${res.headers['x-debug-token']}.har`, remoteAddress: '192.0.2.7' });
    assert.equal(denied.statusCode, 404);
    assert.equal(denied.json().detail, `No route found for "GET /_profiler/${res.headers['x-debug-token']}.har"`);
  });
});

test('outgoing fetch calls are further entries of the HAR, their credentials redacted', async (t) => {
  const callee = await createApp({ config: testConfig({ PROFILER_DSN: 'memory:' }) });
  callee.get('/stock/:id', async () => ({ stock: 3 }));
  await callee.listen({ host: '127.0.0.1', port: 0 });
  t.after(() => callee.close());
  const base = `http://127.0.0.1:${(callee.server.address() as AddressInfo).port}`;
  const caller = await createApp({ config: testConfig({ PROFILER_DSN: 'memory:' }) });
  caller.get('/check', async () => {
    const res = await fetch(`${base}/stock/7?api_key=${CANARY}-out`, { headers: { 'x-auth-token': `${CANARY}-outtoken` } });
    return res.json();
  });
  t.after(() => caller.close());

  const res = await caller.inject({ url: '/check' });
  await caller.profiler!.settled();
  const file = await caller.inject({ url: `/_profiler/${res.headers['x-debug-token']}.har` });
  assert.equal(file.body.includes(CANARY), false);
  const doc = JSON.parse(file.body) as Har;
  await validator.har(doc);
  assert.equal(doc.log.entries.length, 2);
  const call = doc.log.entries[1]!;
  assert.equal(call.pageref, res.headers['x-debug-token']);
  assert.equal(call.request.method, 'GET');
  assert.equal(call.request.url, `${base}/stock/7?api_key=%5Bredacted%5D`);
  assert.deepEqual(call.request.queryString, [{ name: 'api_key', value: '[redacted]' }]);
  assert.deepEqual(call.request.headers.filter((h) => h.name === 'x-auth-token'), [{ name: 'x-auth-token', value: '[redacted]' }]);
  assert.equal(call.response.status, 200);
  assert.equal(call.response.content.mimeType, 'application/json; charset=utf-8');
  assert.ok(Date.parse(call.startedDateTime) >= Date.parse(doc.log.entries[0]!.startedDateTime));
});
