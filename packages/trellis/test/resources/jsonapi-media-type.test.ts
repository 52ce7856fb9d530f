/**
 * JSON:API 1.1, Content Negotiation (server responsibilities): a request whose Content-Type is
 * the JSON:API media type with any parameter but `ext` and `profile` is a 415; when every JSON:API
 * media type in Accept carries one, a 406; an `ext` (this server supports no extension) counts as
 * such a parameter. Both answer with a JSON:API error document. Responses carry the media type
 * with no parameter.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { bookshopApp } from '../docs/bookshop-app.ts';

const JSONAPI = 'application/vnd.api+json';
let app: FastifyInstance;
let admin: string;
before(async () => {
  app = await bookshopApp();
  admin = `Bearer ${(await app.inject({ method: 'POST', url: '/auth', payload: { email: 'admin@bookshop.test', password: 'admin-password' } })).json().token}`;
});
after(() => app.close());

const post = (contentType: string, auth: string | null = admin) =>
  app.inject({ method: 'POST', url: '/authors', headers: { 'content-type': contentType, accept: JSONAPI, ...(auth ? { authorization: auth } : {}) }, payload: JSON.stringify({ data: { type: 'Author', attributes: { name: 'Media Type' } } }) });
const get = (accept: string, url = '/books/1') => app.inject({ url, headers: { accept } });
const detail = (res: { json(): any }) => res.json().errors[0].detail as string;

test('Content-Type with a parameter other than ext or profile: 415, exact message, a JSON:API error document', async () => {
  for (const [contentType, parameter] of [
    [`${JSONAPI}; charset=utf-8`, 'charset'],
    [`${JSONAPI};version=1`, 'version'],
    ['Application/VND.API+JSON; Foo=bar', 'foo'],
    [`${JSONAPI}; profile="https://a.test/p;x,y"; version=1`, 'version'],
    [`${JSONAPI}; q=0.5`, 'q'],
  ] as const) {
    const res = await post(contentType);
    assert.equal(res.statusCode, 415, contentType);
    assert.equal(res.headers['content-type'], JSONAPI);
    assert.equal(detail(res), `The content-type "${contentType}" is not supported: the JSON:API media type may carry only the "ext" and "profile" parameters, not "${parameter}".`);
    assert.equal(res.json().errors[0].status, '415');
  }
});

test('Content-Type with an extension: 415 (no extension is supported); with a profile or an empty ext: accepted', async () => {
  const ext = await post(`${JSONAPI}; ext="https://jsonapi.org/ext/atomic"`);
  assert.equal(ext.statusCode, 415);
  assert.equal(detail(ext), `The content-type "${JSONAPI}; ext="https://jsonapi.org/ext/atomic"" is not supported: this server supports no JSON:API extension (ext="https://jsonapi.org/ext/atomic").`);
  for (const contentType of [JSONAPI, `${JSONAPI}; profile="https://example.test/profiles/x"`, `${JSONAPI}; ext=""`, `${JSONAPI} ; PROFILE=https://example.test/p`]) {
    const res = await post(contentType);
    assert.equal(res.statusCode, 201, `${contentType}: ${res.body}`);
    assert.equal(res.headers['content-type'], JSONAPI, 'sent with no media type parameter');
  }
});

test('the 415 comes after access control: an anonymous write is a 401 first', async () => {
  const res = await post(`${JSONAPI}; charset=utf-8`, null);
  assert.equal(res.statusCode, 401);
});

test('Accept where every JSON:API media type has another parameter: 406, whatever else it lists', async () => {
  for (const [accept, parameter] of [
    [`${JSONAPI}; version=1`, 'version'],
    [`${JSONAPI}; version=1, application/ld+json`, 'version'],
    [`${JSONAPI}; charset=utf-8, ${JSONAPI}; ext="https://jsonapi.org/ext/atomic"`, 'charset'],
    [`application/VND.api+JSON;Level=2;q=0.9`, 'level'],
  ] as const) {
    const res = await get(accept);
    assert.equal(res.statusCode, 406, accept);
    const expected = `Requested format "${accept}" is not supported: every JSON:API media type in it carries a parameter other than "ext" and "profile" ("${parameter}").`;
    if (accept.includes('ld+json')) {
      // The error itself is negotiated among the error formats: JSON-LD ties with JSON:API and comes first.
      assert.equal(res.headers['content-type'], 'application/ld+json; charset=utf-8');
      assert.equal(res.json().detail, expected);
    } else {
      assert.equal(res.headers['content-type'], JSONAPI);
      assert.equal(detail(res), expected);
    }
  }
  const ext = await get(`${JSONAPI}; ext="https://jsonapi.org/ext/atomic"`);
  assert.equal(ext.statusCode, 406);
  assert.equal(detail(ext), `Requested format "${JSONAPI}; ext="https://jsonapi.org/ext/atomic"" is not supported: every JSON:API media type in it asks for an extension, and this server supports none (ext="https://jsonapi.org/ext/atomic").`);
  assert.equal((await get(`${JSONAPI}; version=1`, '/')).statusCode, 406, 'the entrypoint too');
});

test('Accept with one usable JSON:API media type, a weight, or a profile: 200 as JSON:API', async () => {
  for (const accept of [`${JSONAPI}; version=1, ${JSONAPI}`, `${JSONAPI};q=0.5`, `${JSONAPI}; profile="https://example.test/p", ${JSONAPI}; foo=bar`, `${JSONAPI}; q=1; foo=bar`]) {
    const res = await get(accept);
    assert.equal(res.statusCode, 200, accept);
    assert.equal(res.headers['content-type'], JSONAPI);
    assert.equal(res.json().data.id, '1');
  }
  // Not a JSON:API request at all: the rules do not apply.
  assert.equal((await get('application/ld+json; version=1')).statusCode, 200);
  assert.equal((await get('application/vnd.api+jsonx; version=1')).statusCode, 406, 'another media type: the ordinary 406');
  // The URL extension names the format: Accept does not decide.
  assert.equal((await get(`${JSONAPI}; version=1`, '/books/1.jsonapi')).statusCode, 200);
});

test('hostile Accept: unbalanced quotes, a huge header, empty parameters', async () => {
  const unbalanced = await get(`${JSONAPI}; profile="a, ${JSONAPI}`);
  assert.equal(unbalanced.statusCode, 200, 'one element whose profile runs to the end: usable');
  const huge = `${JSONAPI};v=1,`.repeat(400);
  const res = await get(huge);
  assert.equal(res.statusCode, 406);
  assert.equal(detail(res), `Requested format "${huge}" is not supported: every JSON:API media type in it carries a parameter other than "ext" and "profile" ("v").`);
  assert.equal((await get(`${JSONAPI};;;`)).statusCode, 200, 'empty parameters are none');
  // Decisions are cached per Accept: a refused one is refused every time, an accepted one stays accepted.
  for (let i = 0; i < 3; i++) {
    assert.equal((await get(`${JSONAPI}; version=2`)).statusCode, 406);
    assert.equal((await get(JSONAPI)).statusCode, 200);
  }
});
