/**
 * A request refused before its body was read (security runs before deserialisation): the profile
 * says the body was not read and what the client declared, not "0 bytes"; the HAR and the curl
 * replay say it was not recorded.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testConfig } from '../../src/testing/test-config.ts';
import { bookshopApp } from '../docs/bookshop-app.ts';

test('a body nobody read: declared size, and why there is nothing to show', async (t) => {
  const app = await bookshopApp(testConfig({ PROFILER_DSN: 'memory:' }));
  t.after(() => app.close());
  const login = async (email: string, password: string) => (await app.inject({ method: 'POST', url: '/auth', payload: { email, password } })).json().token as string;
  const [alice, bob] = [await login('alice@bookshop.test', 'alice-password'), await login('bob@bookshop.test', 'bob-password')];
  const created = await app.inject({ method: 'POST', url: '/reviews', headers: { authorization: `Bearer ${alice}`, 'content-type': 'application/json', accept: 'application/json' }, payload: { rating: 4, body: 'Mine.', author: '/users/2', book: '/books/1' } });
  assert.equal(created.statusCode, 201, created.body);
  // Alice's review: Bob's PATCH is refused before its body is parsed.
  const payload = JSON.stringify({ body: '<b>mine now</b>' });
  const res = await app.inject({ method: 'PATCH', url: `/reviews/${created.json().id}`, headers: { authorization: `Bearer ${bob}`, 'content-type': 'application/merge-patch+json' }, payload });
  assert.equal(res.statusCode, 403);
  await app.profiler!.settled();
  const token = res.headers['x-debug-token'] as string;
  const stored = await app.profiler!.read(token);
  assert.deepEqual((stored?.collectors.request as { body: unknown }).body, { text: null, size: Buffer.byteLength(payload), truncated: false, note: 'unread' });
  const page = await app.inject({ url: `/_profiler/${token}?panel=request` });
  assert.ok(page.body.includes(`Not recorded: the body was not read by the app (answered before it was read, or read by the route as a stream); Content-Length ${Buffer.byteLength(payload)} bytes.`), page.body.slice(0, 200));
  assert.ok(!page.body.includes('mine now'));
  const har = (await app.inject({ url: `/_profiler/${token}.har` })).json();
  assert.equal(har.log.entries[0].request.bodySize, -1);
});
