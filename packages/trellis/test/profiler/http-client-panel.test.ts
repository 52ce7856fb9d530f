/**
 * The HTTP Client panel (issue 16, item 5): a request that calls another Trellis app with `fetch`
 * shows the call (method, URL, status, timing, headers with the credential redacted) and links to
 * the callee's own profile (its X-Debug-Token-Link): profiles across services.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createApp } from '../../src/app/create-app.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import type { HttpClientData } from '../../src/profiler/panels/http-client/http-client-collector.ts';
import { BROWSER } from './profiler-app.ts';

test('an outgoing fetch is in the caller profile, linked to the callee profile; a failed one is flagged', async (t) => {
  const callee = await createApp({ config: testConfig({ PROFILER_DSN: 'memory:' }) });
  callee.get('/stock/:id', async (request) => ({ id: (request.params as { id: string }).id, stock: 3 }));
  await callee.listen({ host: '127.0.0.1', port: 0 });
  t.after(() => callee.close());
  const base = `http://127.0.0.1:${(callee.server.address() as AddressInfo).port}`;

  const caller = await createApp({ config: testConfig({ PROFILER_DSN: 'memory:' }) });
  caller.get('/check', async () => {
    const res = await fetch(`${base}/stock/7?api_key=outgoing-key-canary`, { headers: { 'x-auth-token': 'outgoing-token-canary' } });
    return { stock: ((await res.json()) as { stock: number }).stock, link: res.headers.get('x-debug-token-link') };
  });
  // A port nothing listens on (fetch refuses port 1 and other 'bad ports' before any request).
  const closed = createServer().listen(0, '127.0.0.1');
  await once(closed, 'listening');
  const closedPort = (closed.address() as AddressInfo).port;
  closed.close();
  caller.get('/broken', async () => {
    await fetch(`http://127.0.0.1:${closedPort}/nowhere`).catch(() => null);
    return { ok: false };
  });
  t.after(() => caller.close());

  const res = await caller.inject({ url: '/check' });
  assert.equal(res.statusCode, 200);
  const { link } = res.json() as { link: string };
  assert.match(link, new RegExp(`^${base}/_profiler/[0-9a-f]{6}$`));
  await caller.profiler!.settled();
  const json = (await caller.inject({ url: `/_profiler/${res.headers['x-debug-token']}.json` })).body;
  const data = (JSON.parse(json) as { collectors: { http_client: HttpClientData } }).collectors.http_client;
  assert.equal(data.count, 1);
  const call = data.calls[0]!;
  assert.deepEqual([call.method, call.url, call.status, call.error, call.profile], ['GET', `${base}/stock/7?api_key=[redacted]`, 200, null, link]);
  assert.ok(call.durationMs !== null && call.durationMs > 0);
  assert.equal(call.requestHeaders['x-auth-token'], '[redacted]');
  assert.equal(call.responseHeaders?.['content-type'], 'application/json; charset=utf-8');
  assert.equal(json.includes('outgoing-token-canary') || json.includes('outgoing-key-canary'), false, 'no credential of the outgoing call is stored');

  // The link opens the callee's profile of that very call.
  await callee.profiler!.settled();
  const calleeProfile = (await (await fetch(`${link}.json`)).json()) as { url: string; statusCode: number };
  assert.deepEqual([calleeProfile.url, calleeProfile.statusCode], [`${base}/stock/7?api_key=[redacted]`, 200]);

  const page = (await caller.inject({ url: `/_profiler/${res.headers['x-debug-token']}?panel=http_client`, headers: { accept: BROWSER } })).body;
  assert.ok(page.includes(`Profile of the callee: <a href="${link}">${link}</a>`));
  assert.match(page, /<a[^>]*data-panel="http_client"[^>]*><span>HTTP Client<\/span><span class="pf-badge ">1<\/span>/);

  const broken = await caller.inject({ url: '/broken' });
  await caller.profiler!.settled();
  const failed = ((await caller.inject({ url: `/_profiler/${broken.headers['x-debug-token']}.json` })).json() as { collectors: { http_client: HttpClientData } }).collectors.http_client;
  assert.equal(failed.failed, 1);
  assert.equal(failed.calls[0]!.status, null);
  assert.ok((failed.calls[0]!.error ?? '').length > 0);
  const brokenPage = (await caller.inject({ url: `/_profiler/${broken.headers['x-debug-token']}?panel=http_client`, headers: { accept: BROWSER } })).body;
  assert.match(brokenPage, /<span class="pf-badge error">1<\/span>/);
});

test('an outgoing call whose URL holds a secret-named parameter is stored redacted; a clean one is stored as its snapshot', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'trellis-http-client-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const callee = createHttpServer((_req, res) => res.end('{}')).listen(0, '127.0.0.1');
  await once(callee, 'listening');
  t.after(() => callee.close());
  const base = `http://127.0.0.1:${(callee.address() as AddressInfo).port}`;
  // Stored by the profiler thread, which decides what may be stored unbuilt (may-hold-secret.ts).
  const caller = await createApp({ config: testConfig({ PROFILER_DSN: `sqlite:${join(dir, 'profiles.db')}` }) });
  caller.get('/pay', async (request) => {
    await (await fetch(`${base}/charge?${(request.query as { q: string }).q}`)).text();
    return { ok: true };
  });
  t.after(() => caller.close());

  const secret = await caller.inject({ url: '/pay?q=api_key%3Dstored-key-canary' });
  const clean = await caller.inject({ url: '/pay?q=page%3D2' });
  await caller.profiler!.settled();
  const record = await caller.profiler!.storage.read(secret.headers['x-debug-token'] as string);
  // Found by an outside review: stored as it came, the key on disk, though its page was redacted.
  assert.equal(record?.data.includes('stored-key-canary'), false, 'the key never reaches the store');
  assert.equal(record?.data.startsWith('{"snapshot":'), false, 'built and redacted before storage');
  assert.ok(record?.data.includes(`${base}/charge?api_key=[redacted]`));
  const cleanRecord = await caller.profiler!.storage.read(clean.headers['x-debug-token'] as string);
  assert.equal(cleanRecord?.data.startsWith('{"snapshot":'), true, 'a clean call leaves the request to be built when read');
});
