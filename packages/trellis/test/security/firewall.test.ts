import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { subscribe, type AccessDecisionEvent, type AuthenticationEvent } from '../../src/observe/channels.ts';
import { ALICE_API_KEY, PASSWORDS, basic, login, securedApp } from './security-fixtures.ts';

let app: FastifyInstance;
let prod: FastifyInstance;
before(async () => {
  app = await securedApp();
  prod = await securedApp({ NODE_ENV: 'production' });
});
after(async () => {
  await app.close();
  await prod.close();
});

const get = (url: string, headers: Record<string, string> = {}, target = app) => target.inject({ url, headers: { accept: 'application/problem+json', ...headers } });

test('a path rule is decided on the routed path: no spelling of /admin walks around it', async () => {
  for (const url of ['/%61dmin/stats', '/%61%64%6D%69%6E/stats', '/admin/%73tats', '/admin/stats?x=/public']) {
    const res = await get(url);
    assert.equal(res.statusCode, 401, url);
    assert.equal(res.json().detail, 'Full authentication is required to access this resource.', url);
  }
  const alice = await get('/%61dmin/stats', { authorization: `Bearer ${await login(app, 'alice@example.test', PASSWORDS.alice)}` });
  assert.equal(alice.statusCode, 403);
});

test('anyone may read; a path rule makes /admin need ROLE_ADMIN: 401 without credentials, 403 with insufficient ones', async () => {
  assert.equal((await get('/books')).statusCode, 200);
  const anonymous = await get('/admin/stats');
  assert.equal(anonymous.statusCode, 401);
  assert.equal(anonymous.headers['www-authenticate'], 'Bearer realm="api"');
  assert.equal(anonymous.json().detail, 'Full authentication is required to access this resource.');
  const alice = await get('/admin/stats', { authorization: `Bearer ${await login(app, 'alice@example.test', PASSWORDS.alice)}` });
  assert.equal(alice.statusCode, 403);
  assert.equal(alice.headers['www-authenticate'], undefined);
  assert.equal(alice.json().detail, 'Access Denied.');
  const admin = await get('/admin/stats', { authorization: `Bearer ${await login(app, 'admin@example.test', PASSWORDS.admin)}` });
  assert.equal(admin.statusCode, 200);
  assert.deepEqual(admin.json(), { users: 3 });
});

test('the 401 and 403 bodies follow the negotiated error format', async () => {
  const page = await app.inject({ url: '/admin/stats', headers: { accept: 'text/html' } });
  assert.equal(page.statusCode, 401);
  assert.match(page.headers['content-type'] as string, /^text\/html/);
  assert.match(page.body, /Full authentication is required to access this resource\./);
  assert.equal(page.headers['www-authenticate'], 'Bearer realm="api"');
});

test('unknown paths stay 404 for everyone, even under /admin and with a bad token', async () => {
  for (const url of ['/admin/.env', '/robots.txt']) {
    const r = await get(url, { authorization: 'Bearer garbage' });
    assert.equal(r.statusCode, 404, url);
    assert.equal(r.json().detail, `No route found for "GET ${url}"`);
  }
});

test('the profiler and the docs pass the firewall without authentication, even with a broken token', async () => {
  const profiler = await get('/_profiler/search_bar', { authorization: 'Bearer garbage', accept: 'text/html' });
  assert.equal(profiler.statusCode, 200);
  assert.match(profiler.headers['content-type'] as string, /^text\/html/);
  const docs = await get('/docs', { authorization: 'Bearer garbage', accept: 'text/html' });
  assert.equal(docs.statusCode, 200);
  assert.match(docs.headers['content-type'] as string, /^text\/html/);
});

test('API keys: X-API-Key authenticates its user; an unknown, empty or oversized key is a 401', async () => {
  const ok = await get('/me', { 'x-api-key': ALICE_API_KEY });
  assert.equal(ok.json().user.identifier, 'alice@example.test');
  for (const key of ['tk_wrong', ' ', 'k'.repeat(300)]) {
    const r = await get('/me', { 'x-api-key': key });
    assert.equal(r.statusCode, 401);
    assert.equal(r.json().detail, 'Invalid API key.');
    assert.equal(r.headers['www-authenticate'], 'ApiKey realm="api", header="X-API-Key"');
  }
});

test('HTTP Basic works in debug only; bad credentials and malformed headers are 401s', async () => {
  assert.equal((await get('/me', { authorization: basic('bob@example.test', PASSWORDS.bob) })).json().user.id, 2);
  const wrong = await get('/me', { authorization: basic('bob@example.test', 'wrong') });
  assert.equal(wrong.statusCode, 401);
  assert.equal(wrong.json().detail, 'Invalid credentials.');
  assert.equal(wrong.headers['www-authenticate'], 'Basic realm="api", charset="UTF-8"');
  for (const header of ['Basic !!!', 'Basic ', `Basic ${Buffer.from('no-colon').toString('base64')}`]) {
    const r = await get('/me', { authorization: header });
    assert.equal(r.statusCode, 401, header);
    assert.equal(r.json().detail, 'The Basic credentials are malformed: expected base64 of "<email>:<password>".');
  }
  const inProduction = await get('/me', { authorization: basic('bob@example.test', PASSWORDS.bob) }, prod);
  assert.equal(inProduction.statusCode, 200);
  assert.deepEqual(inProduction.json(), { user: null }, 'Basic is not an authenticator in production: the request is anonymous');
});

test('bad bearer tokens are 401s with the error in the body and in the challenge', async () => {
  const expired = await new SignJWT({ sub: '1' }).setProtectedHeader({ alg: 'HS256' }).setIssuer('trellis').setAudience('trellis').setExpirationTime(Math.floor(Date.now() / 1000) - 5).sign(new TextEncoder().encode('test-secret-test-secret-test-secret-0123'));
  const r = await get('/books', { authorization: `Bearer ${expired}` });
  assert.equal(r.statusCode, 401);
  assert.equal(r.json().detail, 'The bearer token has expired.');
  assert.equal(r.headers['www-authenticate'], 'Bearer realm="api", error="invalid_token", error_description="The bearer token has expired."');
  const none = await get('/books', { authorization: `Bearer ${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"3"}').toString('base64url')}.` });
  assert.equal(none.statusCode, 401);
  assert.equal(none.json().detail, 'The bearer token is signed with algorithm "none", which is not accepted; expected "HS256".');
  assert.equal(none.headers['www-authenticate'], `Bearer realm="api", error="invalid_token", error_description="The bearer token is signed with algorithm 'none', which is not accepted; expected 'HS256'."`);
  const huge = await get('/books', { authorization: `Bearer ${'a'.repeat(10_000)}` });
  assert.equal(huge.json().detail, 'The bearer token is larger than the limit of 8192 bytes.');
});

test('authentication attempts and path decisions are published', async () => {
  const auth: AuthenticationEvent[] = [];
  const decisions: AccessDecisionEvent[] = [];
  const offAuth = subscribe('authentication', (e) => auth.push(e));
  const offDecision = subscribe('accessDecision', (e) => decisions.push(e));
  try {
    await get('/admin/stats', { 'x-api-key': ALICE_API_KEY });
    await get('/admin/stats', { 'x-api-key': 'nope' });
  } finally {
    offAuth();
    offDecision();
  }
  assert.deepEqual(
    auth.map((e) => [e.authenticator, e.outcome, e.user, e.roles, e.reason]),
    [
      ['jwt', 'skipped', null, [], undefined],
      ['api_key', 'success', 'alice@example.test', ['ROLE_USER'], undefined],
      ['jwt', 'skipped', null, [], undefined],
      ['api_key', 'failure', null, [], 'Invalid API key.'],
    ],
  );
  assert.deepEqual(decisions.map((e) => [e.attribute, e.granted, e.stage]), [['ROLE_ADMIN', false, 'path']]);
});
