/**
 * The order of the lifecycle (kernel/lifecycle.md), walked from outside: route (404/405) → firewall
 * (401) → the operation's `security` with the loaded object (401/403) → parse and deserialise
 * (400/413/415/422). A request refused before its body matters gets the same answer whatever its
 * body: generated for every write operation of the bookshop × {anonymous, alice, bob, admin},
 * with the answer to an empty object `{}` as the oracle (issue 15, item 1).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { testConfig } from '../../src/testing/test-config.ts';
import type { ResourceDefinition } from '../../src/resources/define-resource.ts';
import { bookshopApp } from '../docs/bookshop-app.ts';
import { resources } from '../../../../examples/bookshop/src/resources/index.ts';

const ACCOUNTS: Record<string, [string, string] | null> = {
  anonymous: null,
  alice: ['alice@bookshop.test', 'alice-password'],
  bob: ['bob@bookshop.test', 'bob-password'],
  admin: ['admin@bookshop.test', 'admin-password'],
};
/** Refusals decided before the body is read. */
const BEFORE_BODY = new Set([401, 403, 404, 405]);
const MALFORMED = ['{bad', '', '['.repeat(100), '{"a":'];

describe('lifecycle order: nothing about the body is looked at before routing and access control', () => {
  let app: FastifyInstance;
  const tokens = new Map<string, string>();
  before(async () => {
    app = await bookshopApp(testConfig({ PROFILER: '0', BODY_LIMIT: '64k' }));
    for (const [user, account] of Object.entries(ACCOUNTS)) {
      if (!account) continue;
      const r = await app.inject({ method: 'POST', url: '/auth', payload: { email: account[0], password: account[1] } });
      tokens.set(user, `Bearer ${(r.json() as { token: string }).token}`);
    }
  });
  after(() => app.close());

  const send = (method: string, url: string, user: string, type: string, payload: string): Promise<LightMyRequestResponse> =>
    app.inject({ method: method as 'POST', url, headers: { 'content-type': type, accept: 'application/ld+json', ...(tokens.has(user) ? { authorization: tokens.get(user)! } : {}) }, payload });

  test('every write operation × every user: a refusal before the body is the same for any body', async () => {
    let refusedBefore = 0;
    let parsed = 0;
    for (const resource of resources as unknown as ResourceDefinition[]) {
      for (const op of resource.operations) {
        if (!op.deserialize) continue;
        const url = op.path.replace(':id', '1');
        const type = op.inputMediaTypes[0]!;
        for (const user of Object.keys(ACCOUNTS)) {
          const oracle = await send(op.method, url, user, type, '{}');
          const where = `${op.method} ${url} as ${user}`;
          for (const body of [...MALFORMED, 'x'.repeat(100_000)]) {
            const r = await send(op.method, url, user, type, body);
            if (BEFORE_BODY.has(oracle.statusCode)) {
              assert.equal(r.statusCode, oracle.statusCode, `${where} with ${JSON.stringify(body.slice(0, 12))}: ${r.body.slice(0, 200)}`);
              assert.equal(r.json().detail, oracle.json().detail, where);
            } else {
              assert.ok(r.statusCode === 400 || r.statusCode === 413, `${where} with ${JSON.stringify(body.slice(0, 12))}: ${r.statusCode}`);
            }
          }
          // An unsupported media type is the body's problem too: after access control.
          const other = await send(op.method, url, user, 'text/csv', 'a,b');
          assert.equal(other.statusCode, BEFORE_BODY.has(oracle.statusCode) ? oracle.statusCode : 415, `${where} text/csv`);
          if (BEFORE_BODY.has(oracle.statusCode)) refusedBefore++;
          else parsed++;
        }
      }
    }
    // Both branches ran: some users are refused before the body, some get to it.
    assert.ok(refusedBefore >= 8 && parsed >= 4, `refused before: ${refusedBefore}, parsed: ${parsed}`);
  });

  test('the spec cases: 404/405 before the body, in our format', async () => {
    const r404 = await app.inject({ method: 'POST', url: '/robots.txt', headers: { 'content-type': 'application/json', accept: 'application/json' }, payload: '{bad' });
    assert.equal(r404.statusCode, 404);
    assert.equal(r404.json().detail, 'No route found for "POST /robots.txt"');
    const r405 = await app.inject({ method: 'DELETE', url: '/', headers: { 'content-type': 'application/json', accept: 'application/json' }, payload: '{bad' });
    assert.equal(r405.statusCode, 405);
    assert.equal(r405.headers.allow, 'GET, HEAD');
    const big = await app.inject({ method: 'POST', url: '/robots.txt', headers: { 'content-type': 'application/json', accept: 'application/json' }, payload: 'x'.repeat(2 * 1024 * 1024) });
    assert.equal(big.statusCode, 404);
    for (const url of ['/robots.txt', '/books']) {
      const query = await app.inject({ method: 'QUERY' as 'GET', url, headers: { accept: 'application/json' } });
      assert.ok(query.statusCode === 404 || query.statusCode === 405, `QUERY ${url}: ${query.statusCode}`);
      assert.match(query.headers['content-type'] as string, /^application\/(problem\+)?json/);
    }
    // Anonymous writes with malformed bodies: 401, as alice 403 (the spec's examples).
    assert.equal((await send('POST', '/books', 'anonymous', 'application/ld+json', '{bad')).statusCode, 401);
    assert.equal((await send('POST', '/books', 'alice', 'application/ld+json', '{bad')).statusCode, 403);
    assert.equal((await send('PATCH', '/books/1', 'anonymous', 'application/merge-patch+json', '{x')).statusCode, 401);
    // And where the body is read, its errors are exact.
    const bad = await send('POST', '/books', 'admin', 'application/ld+json', '{bad');
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().detail ?? bad.json().description, 'Syntax error in the JSON request body at line 1, column 2.');
    const tooBig = await send('POST', '/books', 'admin', 'application/ld+json', `{"title":"${'x'.repeat(70_000)}"}`);
    assert.equal(tooBig.statusCode, 413);
  });

  test('a body in a content coding is refused unread (415 with Accept-Encoding), after access control, on every reader', async () => {
    const coded = (method: string, url: string, user: string, type: string, encoding: string) =>
      app.inject({ method: method as 'POST', url, headers: { 'content-type': type, 'content-encoding': encoding, accept: 'application/ld+json', ...(tokens.has(user) ? { authorization: tokens.get(user)! } : {}) }, payload: '{}' });
    // A resource operation (its body read after the checks) and a plain JSON route (/auth).
    for (const [method, url, user, type] of [['POST', '/books', 'admin', 'application/ld+json'], ['PATCH', '/books/1', 'admin', 'application/merge-patch+json'], ['POST', '/auth', 'anonymous', 'application/json']] as const) {
      const r = await coded(method, url, user, type, 'gzip');
      assert.equal(r.statusCode, 415, `${method} ${url}: ${r.body}`);
      assert.equal(r.headers['accept-encoding'], 'identity');
      assert.equal(r.json().detail, 'The content-coding "gzip" is not supported: send the request body without a Content-Encoding.');
    }
    assert.equal((await coded('POST', '/books', 'admin', 'application/ld+json', 'identity, DEFLATE')).json().detail, 'The content-coding "deflate" is not supported: send the request body without a Content-Encoding.');
    // Access control still comes first; identity is no coding at all.
    assert.equal((await coded('POST', '/books', 'anonymous', 'application/ld+json', 'gzip')).statusCode, 401);
    assert.equal((await coded('POST', '/books', 'alice', 'application/ld+json', 'gzip')).statusCode, 403);
    assert.equal((await coded('POST', '/books', 'admin', 'application/ld+json', 'identity')).statusCode, 422);
  });

  test('a JSON body declared in a charset other than UTF-8 is refused unread (415, RFC 8259 §8.1), after access control', async () => {
    const typed = (method: string, url: string, user: string, type: string) =>
      app.inject({ method: method as 'POST', url, headers: { 'content-type': type, accept: 'application/ld+json', ...(tokens.has(user) ? { authorization: tokens.get(user)! } : {}) }, payload: '{}' });
    for (const [method, url, user, type, charset] of [
      ['POST', '/books', 'admin', 'application/ld+json; charset=utf-16', 'utf-16'],
      ['PATCH', '/books/1', 'admin', 'application/merge-patch+json;charset="ISO-8859-1"', 'iso-8859-1'],
      ['POST', '/auth', 'anonymous', 'application/json; charset=latin1', 'latin1'],
    ] as const) {
      const r = await typed(method, url, user, type);
      assert.equal(r.statusCode, 415, `${method} ${url}: ${r.body}`);
      assert.equal(r.json().detail, `The charset "${charset}" is not supported: send JSON as UTF-8 (RFC 8259 §8.1).`);
    }
    // UTF-8 in any spelling is JSON's own; access control still comes first.
    assert.equal((await typed('POST', '/books', 'admin', 'application/ld+json; charset=UTF-8')).statusCode, 422);
    assert.equal((await typed('POST', '/books', 'admin', 'application/ld+json; charset=utf8')).statusCode, 422);
    assert.equal((await typed('POST', '/books', 'anonymous', 'application/ld+json; charset=utf-16')).statusCode, 401);
  });
});
