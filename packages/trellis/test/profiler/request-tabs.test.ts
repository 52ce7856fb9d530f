/**
 * The tabs people expect (issue 16, item 9): cookies sent and set (names and attributes, values
 * redacted), server parameters, and logs with level and channel filters and counts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createApp } from '../../src/app/create-app.ts';
import { createLogger } from '../../src/logging/create-logger.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { BROWSER } from './profiler-app.ts';

test('cookies, server parameters, and filtered logs', async (t) => {
  const config = testConfig({ PROFILER_DSN: 'memory:' });
  // Records are captured for the profile; the lines themselves go nowhere.
  const logger = createLogger({ level: 'warn', captureRequestRecords: true, destination: new Writable({ write: (_c, _e, cb) => cb() }) });
  const app = await createApp({ config, logger });
  app.get('/visit', async (request, reply) => {
    request.log.warn({ channel: 'cart' }, 'cart almost full');
    request.log.error({ channel: 'payment' }, 'card declined');
    request.log.info({ channel: 'cart' }, 'cart read');
    reply.header('set-cookie', ['sid=set-cookie-canary; Path=/; HttpOnly; SameSite=Lax', 'theme=dark']);
    return { ok: true };
  });
  t.after(() => app.close());
  const res = await app.inject({ url: '/visit', headers: { cookie: 'sid=cookie-canary-value; theme=dark', 'user-agent': 'tabs-test/1.0' } });
  await app.profiler!.settled();
  const token = res.headers['x-debug-token'] as string;
  const page = async (query: string) => (await app.inject({ url: `/_profiler/${token}?${query}`, headers: { accept: BROWSER } })).body;
  const json = (await app.inject({ url: `/_profiler/${token}.json` })).body;
  assert.equal(json.includes('cookie-canary-value') || json.includes('set-cookie-canary'), false, 'no cookie value is stored');

  const request = await page('panel=request');
  assert.match(request, /<h3>Cookies<\/h3><table class="pf-table"><tbody><tr><th scope="row">sid<\/th><td>\[redacted\]<\/td><\/tr><tr><th scope="row">theme<\/th><td>\[redacted\]<\/td><\/tr>/);
  assert.match(request, /<h3>Server parameters<\/h3>[\s\S]*<th scope="row">Remote address<\/th><td>127\.0\.0\.1<\/td>[\s\S]*<th scope="row">User agent<\/th><td>tabs-test\/1\.0<\/td>/);
  const response = await page('panel=response');
  assert.match(response, /<th scope="row">sid<\/th><td>\[redacted\]; Path=\/; HttpOnly; SameSite=Lax<\/td>/);

  // Log records are marks on the Performance timeline, with their message on hover.
  const time = await page('panel=time');
  assert.match(time, /<div class="row log"><span class="mono">warn cart<\/span><svg[^>]*><title>warn cart: cart almost full<\/title>/);
  const logs = await page('panel=logs');
  assert.match(logs, /<span class="level-warn">warn 1<\/span>/);
  assert.match(logs, /<span class="level-error">error 1<\/span>/);
  assert.match(logs, /<option value="cart">cart \(1\)<\/option>/);
  const errorsOnly = await page('panel=logs&level=error');
  assert.match(errorsOnly, /card declined/);
  assert.doesNotMatch(errorsOnly, /cart almost full/);
  assert.match(errorsOnly, /<option value="error" selected>error<\/option>/);
  const cartOnly = await page('panel=logs&channel=cart');
  assert.match(cartOnly, /cart almost full/);
  assert.doesNotMatch(cartOnly, /card declined/);
  assert.match(cartOnly, /<span class="pf-note">1 of \d+ shown<\/span>/);
});
