/**
 * JSON:API 1.1, Creating and Updating Resources: a resource object of another type than the
 * endpoint's is a 409, an update naming another id a 409, a creation choosing its own id a 403;
 * a relationship linkage of another type than the relationship's is refused, never read as an
 * id of the right type; a relationship without resource linkage (only `links`, a bare value, a name
 * that is not a relationship) is a malformed document (400). Exact messages, JSON:API error documents.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { bookshopApp } from '../docs/bookshop-app.ts';

const JSONAPI = 'application/vnd.api+json';
let app: FastifyInstance;
let alice: string;
let ownReview: string;
before(async () => {
  app = await bookshopApp();
  alice = `Bearer ${(await app.inject({ method: 'POST', url: '/auth', payload: { email: 'alice@bookshop.test', password: 'alice-password' } })).json().token}`;
  const created = await send('POST', '/reviews', { type: 'Review', attributes: { rating: 3, body: 'Mine.' }, relationships: { author: { data: { type: 'User', id: '2' } }, book: { data: { type: 'Book', id: '1' } } } });
  assert.equal(created.statusCode, 201, created.body);
  ownReview = created.json().data.id;
});
after(() => app.close());

function send(method: string, url: string, data: unknown, auth: string | null = alice) {
  return app.inject({ method, url, headers: { 'content-type': JSONAPI, accept: JSONAPI, ...(auth ? { authorization: auth } : {}) }, payload: JSON.stringify({ data }) });
}
const error = (res: { statusCode: number; json(): any }) => [res.statusCode, res.json().errors[0].detail];
const review = (extra: Record<string, unknown> = {}, author: unknown = { type: 'User', id: '2' }) => ({ type: 'Review', attributes: { rating: 4, body: 'Fine.' }, relationships: { author: { data: author }, book: { data: { type: 'Book', id: '1' } } }, ...extra });

test('a resource object of another type: 409, whatever the spelling', async () => {
  for (const type of ['Book', 'review', 'Reviews', ' Review', '']) {
    assert.deepEqual(error(await send('POST', '/reviews', review({ type }))), [409, `The resource object's type "${type}" does not match the endpoint's type "Review".`], type);
  }
  assert.deepEqual(error(await send('PATCH', `/reviews/${ownReview}`, { type: 'Book', id: ownReview })), [409, 'The resource object\'s type "Book" does not match the endpoint\'s type "Review".']);
  assert.deepEqual(error(await send('POST', '/reviews', review({ type: 7 }))), [400, 'The request body must be a JSON:API resource object of type "Review".']);
});

test('ids: a creation may not choose one (403), an update names its own (409 otherwise)', async () => {
  assert.deepEqual(error(await send('POST', '/reviews', review({ id: '9999' }))), [403, 'Client-generated ids are not supported: leave "id" ("9999") out of the resource object.']);
  assert.deepEqual(error(await send('POST', '/reviews', review({ id: 9999 }))), [400, 'The request body must be a JSON:API resource object whose "id" is a string.']);
  for (const id of ['1', '', `${ownReview} `, `0${ownReview}`]) {
    assert.deepEqual(error(await send('PATCH', `/reviews/${ownReview}`, { type: 'Review', id, attributes: { body: 'Edited.' } })), [409, `The resource object's id "${id}" does not match the endpoint's id "${ownReview}".`], id);
  }
  const ok = await app.inject({ method: 'PATCH', url: `/reviews/${ownReview}`, headers: { 'content-type': JSONAPI, accept: JSONAPI, authorization: alice }, payload: JSON.stringify({ data: { type: 'Review', id: ownReview, attributes: { body: 'Edited.' } } }) });
  assert.equal(ok.statusCode, 200, ok.body);
  assert.equal(ok.json().data.attributes.body, 'Edited.');
});

test('a linkage of another type than the relationship\'s is refused, not read as a User id', async () => {
  assert.deepEqual(error(await send('POST', '/reviews', review({}, { type: 'Book', id: '2' }))), [400, 'The request body must be a JSON:API document whose relationship "author" links resources of type "User".']);
  const untyped = await send('POST', '/reviews', review({}, { id: '2' }));
  assert.equal(untyped.statusCode, 201, 'a linkage without a type is read as the relationship\'s type');
  assert.deepEqual(untyped.json().data.relationships.author, { data: { type: 'User', id: '2' } });
});

test('a relationship is a relationship object with resource linkage, else the document is malformed (400), not a value to validate', async () => {
  const sent = (relationships: Record<string, unknown>) => send('POST', '/reviews', { ...review(), relationships: { book: { data: { type: 'Book', id: '1' } }, ...relationships } });
  const noData = 'The request body must be a JSON:API document whose relationship "author" is an object with a "data" member.';
  for (const author of [{ links: { related: '/users/2' } }, { meta: {} }, {}, 5, 'x', [], null, true]) {
    assert.deepEqual(error(await sent({ author })), [400, noData], JSON.stringify(author));
  }
  const notLinkage = 'The request body must be a JSON:API document whose relationship "author" has "data": null or {"type": "User", "id": "…"}.';
  for (const data of [{ type: 'User', id: 2 }, { type: 'User' }, [{ type: 'User', id: '2' }], 'x', '/users/2', 2, []]) {
    assert.deepEqual(error(await sent({ author: { data } })), [400, notLinkage], JSON.stringify(data));
  }
  const notRelationship = (name: string) => `The request body must be a JSON:API resource object whose relationships are among "author", "book" ("${name}" is not one).`;
  for (const name of ['rating', 'body', 'nope', 'Author']) {
    assert.deepEqual(error(await sent({ [name]: { data: { type: 'User', id: '2' } } })), [400, notRelationship(name)], name);
  }
  // An id is a segment of the related resource's IRI, never a path that leaves it.
  for (const id of ['2/../../books/1', '2?x=1', '']) {
    const res = await sent({ author: { data: { type: 'User', id } } });
    assert.deepEqual([res.statusCode, res.json().errors[0].detail, res.json().errors[0].source], [422, `Invalid IRI "/users/${id}": expected an IRI of a User.`, { pointer: '/data/relationships/author' }], id);
  }
});

test('access control comes first: an anonymous write is a 401 whatever the document says', async () => {
  assert.equal((await send('POST', '/reviews', review({ type: 'Book', id: '1' }), null)).statusCode, 401);
});
