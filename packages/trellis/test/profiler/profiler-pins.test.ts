/**
 * Pins and purge (issue 17, item 5): the Pin button of the profile page and of the search rows,
 * a pinned profile kept whatever the retention, the Purge button keeping only pinned ones. Both
 * are POST forms with a CSRF token; a forged, missing or misplaced token is a 403 with its exact
 * message, and the gate refuses them like every profiler route.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { ProfilerCsrf } from '../../src/profiler/pins/profiler-csrf.ts';
import { MemoryProfileStorage } from '../../src/profiler/storage/memory-profile-storage.ts';
import { testConfig } from '../../src/testing/index.ts';
import { BROWSER, profilerApp } from './profiler-app.ts';

const CSRF_REFUSED = 'The profiler refused this form: its CSRF token is missing or does not match. Reload the page and try again.';
const FORM = 'application/x-www-form-urlencoded';

/** The hidden fields of the form posting to `action` on a page, by name. */
function formOf(page: string, action: string): Record<string, string> {
  const at = page.indexOf(`action="${action}"`);
  assert.ok(at !== -1, `no form posting to ${action}`);
  const form = page.slice(at, page.indexOf('</form>', at));
  return Object.fromEntries([...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replaceAll('&amp;', '&')]));
}

describe('pins and purge', () => {
  let app: FastifyInstance;
  const post = (url: string, fields: Record<string, string>, extra: { remoteAddress?: string; contentType?: string; body?: string } = {}) =>
    app.inject({ method: 'POST', url, remoteAddress: extra.remoteAddress ?? '127.0.0.1', headers: { 'content-type': extra.contentType ?? FORM, accept: 'application/json' }, body: extra.body ?? new URLSearchParams(fields).toString() });
  const requestToken = async (url: string) => (await app.inject({ url })).headers['x-debug-token'] as string;
  const pinFields = async (token: string) => formOf((await app.inject({ url: `/_profiler/${token}`, headers: { accept: BROWSER } })).body, `/_profiler/${token}/pin`);

  before(async () => {
    app = await profilerApp({ PROFILER_MAX_PROFILES: '5' });
  });
  after(() => app.close());

  test('the profile page pins and unpins, back where the form was', async () => {
    const token = await requestToken('/hello?pin=1');
    await app.profiler!.settled();
    const fields = await pinFields(token);
    assert.equal(fields.pinned, '1');
    assert.equal(fields.return, `/_profiler/${token}`);
    assert.match(fields._csrf!, /^[A-Za-z0-9_-]{43}$/);
    const pinned = await post(`/_profiler/${token}/pin`, fields);
    assert.equal(pinned.statusCode, 303);
    assert.equal(pinned.headers.location, `/_profiler/${token}`);
    assert.deepEqual((await app.profiler!.storage.find({ token, limit: 1 })).map((s) => s.pinned), [true]);
    const page = (await app.inject({ url: `/_profiler/${token}` })).body;
    assert.match(page, /<button type="submit" class="pinned" aria-pressed="true"[^>]*>Unpin<\/button>/);
    assert.equal((await app.inject({ url: `/_profiler/${token}.json` })).json().pinned, true);
    const unpinned = await post(`/_profiler/${token}/pin`, { ...formOf(page, `/_profiler/${token}/pin`) });
    assert.equal(unpinned.statusCode, 303);
    assert.deepEqual((await app.profiler!.storage.find({ token, limit: 1 })).map((s) => s.pinned), [undefined]);
    assert.equal((await app.inject({ url: `/_profiler/${token}.json` })).json().pinned, undefined);
  });

  test('a pinned profile outlives retention; search rows pin too; "Pinned only" lists them', async () => {
    const kept = await requestToken('/hello?keep=me');
    await app.profiler!.settled();
    const listing = (await app.inject({ url: '/_profiler/search?url=keep%3Dme&limit=10' })).body;
    const fields = formOf(listing, `/_profiler/${kept}/pin`);
    assert.equal(fields.return, '/_profiler/search?url=keep%3Dme&limit=10');
    assert.equal((await post(`/_profiler/${kept}/pin`, fields)).headers.location, '/_profiler/search?url=keep%3Dme&limit=10');
    for (let i = 0; i < 8; i++) await app.inject({ url: `/hello?filler=${i}` });
    await app.profiler!.settled();
    assert.equal((await app.profiler!.read(kept))?.url, 'http://localhost:80/hello?keep=me');
    const found = await app.profiler!.storage.find({ limit: 100 });
    assert.equal(found.filter((s) => !s.pinned).length, 5, 'the others are held to PROFILER_MAX_PROFILES');
    const pinnedOnly = (await app.inject({ url: '/_profiler/search?pinned=1&limit=100' })).body;
    assert.match(pinnedOnly, /<h2 class="pf-results-count">1 results found<\/h2>/);
    assert.match(pinnedOnly, /<input type="checkbox" name="pinned" value="1" checked> Pinned only/);
    const json = (await app.inject({ url: '/_profiler/search.json?pinned=1' })).json();
    assert.deepEqual(json.results.map((r: { token: string; pinned: boolean }) => [r.token, r.pinned]), [[kept, true]]);
    const bad = await app.inject({ url: '/_profiler/search.json?pinned=yes', headers: { accept: 'application/json' } });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().detail, 'Invalid profiler search parameter "pinned": expected 1 (pinned profiles only) or nothing.');
  });

  test('purge deletes every profile but the pinned ones', async () => {
    const kept = await requestToken('/hello?survives=purge');
    const gone = await requestToken('/hello?goes=purge');
    await app.profiler!.settled();
    await post(`/_profiler/${kept}/pin`, await pinFields(kept));
    const listing = (await app.inject({ url: '/_profiler/search?limit=50' })).body;
    const fields = formOf(listing, '/_profiler/purge');
    const res = await post('/_profiler/purge', fields);
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/_profiler/search?limit=50');
    assert.equal(await app.profiler!.read(gone), null);
    assert.equal((await app.profiler!.read(kept))?.token, kept);
    assert.ok((await app.profiler!.storage.find({ limit: 100 })).every((s) => s.pinned === true));
    // The POSTs themselves are not profiled.
    assert.deepEqual((await app.profiler!.storage.find({ url: '/_profiler', limit: 100 })).map((s) => s.url), []);
  });

  test('a missing, forged or misplaced CSRF token: 403 with its exact message, and nothing changes', async () => {
    const token = await requestToken('/hello?hostile=1');
    const other = await requestToken('/hello?hostile=2');
    await app.profiler!.settled();
    const fields = await pinFields(token);
    const purgeToken = formOf((await app.inject({ url: '/_profiler/search' })).body, '/_profiler/purge')._csrf!;
    const cases: [string, string, Record<string, string>, { body?: string }?][] = [
      ['no token', `/_profiler/${token}/pin`, { pinned: '1' }],
      ['empty token', `/_profiler/${token}/pin`, { _csrf: '', pinned: '1' }],
      ['forged token', `/_profiler/${token}/pin`, { _csrf: 'A'.repeat(43), pinned: '1' }],
      ['one character off', `/_profiler/${token}/pin`, { _csrf: fields._csrf!.slice(0, -1) + (fields._csrf!.endsWith('A') ? 'B' : 'A'), pinned: '1' }],
      ['the token of another profile', `/_profiler/${other}/pin`, { _csrf: fields._csrf!, pinned: '1' }],
      ['the purge token on a pin', `/_profiler/${token}/pin`, { _csrf: purgeToken, pinned: '1' }],
      ['a pin token on purge', '/_profiler/purge', { _csrf: fields._csrf! }],
      ['the token sent second, a forged one first', `/_profiler/${token}/pin`, {}, { body: `_csrf=forged&_csrf=${encodeURIComponent(fields._csrf!)}&pinned=1` }],
      ['a token with a NUL', '/_profiler/purge', { _csrf: `${purgeToken}\u0000` }],
      ['no body at all', '/_profiler/purge', {}, { body: '' }],
    ];
    for (const [name, url, form, extra] of cases) {
      const res = await post(url, form, extra ?? {});
      assert.equal(res.statusCode, 403, name);
      assert.equal(res.json().detail, CSRF_REFUSED, name);
    }
    assert.equal((await app.profiler!.storage.find({ token, limit: 1 }))[0]?.pinned, undefined);
    assert.equal((await app.profiler!.read(other))?.token, other, 'not purged');
  });

  test('odd forms: another media type, an oversized body, a bad flag, an unknown token', async () => {
    const token = await requestToken('/hello?odd=1');
    await app.profiler!.settled();
    const fields = await pinFields(token);
    const json = await post(`/_profiler/${token}/pin`, {}, { contentType: 'application/json', body: JSON.stringify(fields) });
    assert.equal(json.statusCode, 415);
    assert.equal(json.json().detail, 'The content-type "application/json" is not supported. Supported MIME types are "application/x-www-form-urlencoded".');
    const big = await post(`/_profiler/${token}/pin`, {}, { body: `${new URLSearchParams(fields)}&pad=${'x'.repeat(5000)}` });
    assert.equal(big.statusCode, 413);
    const flag = await post(`/_profiler/${token}/pin`, { ...fields, pinned: 'yes' });
    assert.equal(flag.statusCode, 400);
    assert.equal(flag.json().detail, 'The "pinned" field must be 1 (pin) or 0 (unpin).');
    // A token the store does not hold, with the CSRF token the profiler would render for it:
    // keyed by the app's secret, so every process of the app (and this test) makes the same.
    const csrf = new ProfilerCsrf(testConfig().jwt.secret);
    assert.equal(csrf.token('pin', token), fields._csrf);
    const unknown = await post('/_profiler/ffffff/pin', { _csrf: csrf.token('pin', 'ffffff'), pinned: '1' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().detail, 'Token "ffffff" not found.');
    const notAToken = await post('/_profiler/..%2F..%2Fx/pin', { _csrf: csrf.token('pin', '../../x'), pinned: '1' });
    assert.equal(notAToken.statusCode, 404);
    assert.equal(notAToken.json().detail, 'Token "../../x" not found.');
    const refused = await post('/_profiler/ffffff/pin', { _csrf: fields._csrf!, pinned: '1' });
    assert.equal(refused.statusCode, 403, 'the token of another profile is refused before the store is asked');
  });

  test('where to go back: only a profiler page of this origin', async () => {
    const token = await requestToken('/hello?return=1');
    await app.profiler!.settled();
    const fields = await pinFields(token);
    for (const evil of ['//evil.example/_profiler', '/\\evil.example', 'http://evil.example/_profiler/', '/_profiler\\@evil.example', '/_profilerx', '/books', 'javascript:alert(1)', '/_profiler/\r\nSet-Cookie: a=b']) {
      const res = await post(`/_profiler/${token}/pin`, { ...fields, return: evil });
      assert.equal(res.statusCode, 303, evil);
      assert.equal(res.headers.location, `/_profiler/${token}`, evil);
    }
    const res = await post(`/_profiler/${token}/pin`, { ...fields, return: '/_profiler/search?limit=50' });
    assert.equal(res.headers.location, '/_profiler/search?limit=50');
  });

  test('GET and HEAD of the purge form\'s URL are 405 with Allow: POST, not a "token not found" page', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await app.inject({ method, url: '/_profiler/purge' });
      assert.equal(res.statusCode, 405, method);
      assert.equal(res.headers.allow, 'POST', method);
      if (method === 'GET') assert.equal(res.json().detail, 'No route found for "GET /_profiler/purge": Method Not Allowed (Allow: POST)');
    }
  });

  test('the gate: a client outside PROFILER_ALLOW gets the 404 of an unknown path, and nothing is purged', async () => {
    const token = await requestToken('/hello?gate=1');
    await app.profiler!.settled();
    const fields = await pinFields(token);
    const purgeFields = formOf((await app.inject({ url: '/_profiler/search' })).body, '/_profiler/purge');
    for (const [url, form] of [[`/_profiler/${token}/pin`, fields], ['/_profiler/purge', purgeFields]] as const) {
      const res = await post(url, form, { remoteAddress: '192.0.2.7' });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().detail, `No route found for "POST ${url}"`);
    }
    assert.equal((await app.profiler!.read(token))?.token, token);
    assert.equal((await app.profiler!.storage.find({ token, limit: 1 }))[0]?.pinned, undefined);
  });
});

test('the store failing under a pin or a purge: 503 saying so, with Retry-After, never a 500', async () => {
  const store = new MemoryProfileStorage({ maxProfiles: 100, ttlSeconds: 3600 });
  const lost = () => Promise.reject(new Error('connection lost'));
  const app = await profilerApp({}, { storage: Object.assign(Object.create(store) as MemoryProfileStorage, { pin: lost, purge: lost }) });
  try {
    const csrf = new ProfilerCsrf(testConfig().jwt.secret);
    const token = (await app.inject({ url: '/hello' })).headers['x-debug-token'] as string;
    for (const [url, fields] of [[`/_profiler/${token}/pin`, { _csrf: csrf.token('pin', token), pinned: '1' }], ['/_profiler/purge', { _csrf: csrf.token('purge') }]] as const) {
      const res = await app.inject({ method: 'POST', url, headers: { 'content-type': FORM, accept: 'application/json' }, body: new URLSearchParams(fields).toString() });
      assert.equal(res.statusCode, 503, url);
      assert.equal(res.headers['retry-after'], '5');
      assert.equal(res.json().detail, 'The profile store is unavailable (connection lost); requests are served but not recorded until it is back.');
    }
  } finally {
    await app.close();
  }
});
