import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { PASSWORDS, securedApp } from './security-fixtures.ts';

let app: FastifyInstance;
before(async () => {
  app = await securedApp();
});
after(() => app.close());

const post = (payload: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/auth', headers: { 'content-type': 'application/json', ...headers }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });

test('POST /auth with a seed user returns a JWT for that user, which then authenticates', async () => {
  const response = await post({ email: 'alice@example.test', password: PASSWORDS.alice });
  assert.equal(response.statusCode, 200);
  assert.equal(response.headers['cache-control'], 'no-store');
  const { token } = response.json() as { token: string };
  assert.deepEqual(Object.keys(response.json()), ['token']);
  assert.deepEqual(decodeProtectedHeader(token), { alg: 'HS256', typ: 'JWT' });
  const claims = decodeJwt(token);
  assert.equal(claims.sub, '1');
  assert.equal(claims.iss, 'trellis');
  assert.equal(claims.aud, 'trellis');
  assert.equal(claims.exp! - claims.iat!, 3600);
  const me = await app.inject({ url: '/me', headers: { authorization: `Bearer ${token}` } });
  assert.deepEqual(me.json(), { user: { id: 1, identifier: 'alice@example.test', roles: ['ROLE_USER'] } });
});

test('a wrong password and an unknown email get the same 401 and challenge', async () => {
  const wrong = await post({ email: 'alice@example.test', password: 'nope' });
  const unknown = await post({ email: 'nobody@example.test', password: PASSWORDS.alice });
  for (const r of [wrong, unknown]) {
    assert.equal(r.statusCode, 401);
    assert.equal(r.headers['www-authenticate'], 'Bearer realm="api"');
    assert.equal(r.json().detail, 'Invalid credentials.');
    assert.equal(r.json().code, 'invalid_credentials');
  }
  const long = await post({ email: 'alice@example.test', password: 'x'.repeat(5000) });
  assert.equal(long.statusCode, 401);
  assert.equal(long.json().detail, 'Invalid credentials.');
});

test('a malformed login body is a 400 with one exact message', async () => {
  const message = 'The login request body must be a JSON object with string members "email" and "password".';
  for (const body of [{}, { email: 'alice@example.test' }, { email: 1, password: 'x' }, [], 'null', '"text"', { email: 'a', password: ['x'] }]) {
    const r = await post(body);
    assert.equal(r.statusCode, 400, JSON.stringify(body));
    assert.equal(r.json().detail, message);
  }
  const empty = await app.inject({ method: 'POST', url: '/auth' });
  assert.equal(empty.statusCode, 400);
  assert.equal(empty.json().detail, message);
  const broken = await post('{"email":');
  assert.equal(broken.statusCode, 400);
  assert.match(broken.json().detail, /^Syntax error in the JSON request body: /);
});

test('GET /auth is a 405 naming POST', async () => {
  const r = await app.inject({ url: '/auth' });
  assert.equal(r.statusCode, 405);
  assert.equal(r.headers.allow, 'POST');
});
