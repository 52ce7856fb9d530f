/**
 * JSON:API clients get JSON:API error documents (issue 19, item 1, in part): a top-level `errors`
 * array, status as a string, the exact message as `detail`, one error object per violation with a
 * `source.pointer`, and the JSON:API media type.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../src/data/database.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { createBookshop } from '../../../../examples/bookshop/src/bookshop.ts';

const JSONAPI = 'application/vnd.api+json';

test('404, 401 and 422 as JSON:API error documents', async (t) => {
  const database = openDatabase('sqlite::memory:');
  const app = await createBookshop({ config: testConfig({ PROFILER: '0', NODE_ENV: 'production', JWT_SECRET: 'jsonapi-errors-secret-0123456789-abcdef' }), database, tls: null, seed: { passwordCost: 1024 } });
  t.after(async () => {
    await app.close();
    await database.destroy();
  });
  const missing = await app.inject({ url: '/books/999', headers: { accept: JSONAPI } });
  assert.equal(missing.statusCode, 404);
  assert.match(String(missing.headers['content-type']), /^application\/vnd\.api\+json/);
  assert.deepEqual(missing.json(), { jsonapi: { version: '1.1' }, errors: [{ status: '404', code: 'item_not_found', title: 'Not Found', detail: 'Item not found for "/books/999".' }] });

  const anonymous = await app.inject({ method: 'POST', url: '/reviews', headers: { accept: JSONAPI, 'content-type': JSONAPI }, payload: { data: { type: 'Review', attributes: { rating: 5 } } } });
  assert.equal(anonymous.statusCode, 401);
  assert.equal((anonymous.json() as { errors: { status: string }[] }).errors[0]!.status, '401');

  const login = (await app.inject({ method: 'POST', url: '/auth', payload: { email: 'alice@bookshop.test', password: 'alice-password' } })).json() as { token: string };
  const invalid = await app.inject({
    method: 'POST',
    url: '/reviews',
    headers: { accept: JSONAPI, 'content-type': 'application/ld+json', authorization: `Bearer ${login.token}` },
    payload: { rating: 9, body: 'x', author: '/users/2', book: '/books/1' },
  });
  assert.equal(invalid.statusCode, 422, invalid.body);
  const errors = (invalid.json() as { errors: { status: string; code: string; detail: string; source: { pointer: string } }[] }).errors;
  assert.ok(errors.length >= 1);
  const rating = errors.find((e) => e.source.pointer === '/data/attributes/rating');
  assert.ok(rating, JSON.stringify(errors));
  assert.equal(rating!.status, '422');
  assert.equal(typeof rating!.detail, 'string');
  assert.ok(rating!.detail.length > 0);

  // A relation's violation points where JSON:API sends it: under relationships, not attributes.
  const noBook = await app.inject({
    method: 'POST',
    url: '/reviews',
    headers: { accept: JSONAPI, 'content-type': JSONAPI, authorization: `Bearer ${login.token}` },
    payload: { data: { type: 'Review', attributes: { rating: 5, body: 'x', extra: 1 }, relationships: { author: { data: { type: 'User', id: '2' } }, book: { data: { type: 'Book', id: '999999' } } } } },
  });
  assert.equal(noBook.statusCode, 422, noBook.body);
  const pointers = (noBook.json() as { errors: { source: { pointer: string } }[] }).errors.map((e) => e.source.pointer).sort();
  assert.deepEqual(pointers, ['/data/attributes/extra', '/data/relationships/book']);
  // The relation names ride with the error for this format only: no other format writes them.
  const asLd = await app.inject({
    method: 'POST',
    url: '/reviews',
    headers: { accept: 'application/ld+json', 'content-type': 'application/ld+json', authorization: `Bearer ${login.token}` },
    payload: { rating: 5, body: 'x', author: '/users/2', book: '/books/999999' },
  });
  assert.equal(asLd.statusCode, 422, asLd.body);
  assert.deepEqual(Object.keys(asLd.json()).sort(), ['@context', '@type', 'code', 'description', 'detail', 'status', 'title', 'type', 'violations']);
  assert.deepEqual(asLd.json().violations, [{ propertyPath: 'book', message: 'Item not found for "/books/999999".', code: 'not_found' }]);
});

test("JSON:API's sort, page[number], page[size] and filter[…] on a collection (issue 19, item 1, in part)", async (t) => {
  const database = openDatabase('sqlite::memory:');
  const app = await createBookshop({ config: testConfig({ PROFILER: '0' }), database, tls: null, seed: { passwordCost: 1024 } });
  t.after(async () => {
    await app.close();
    await database.destroy();
  });
  const res = await app.inject({ url: '/books?sort=-publicationDate&page[number]=2&page[size]=5&filter[title]=the', headers: { accept: JSONAPI } });
  assert.equal(res.statusCode, 200);
  const doc = res.json() as { data: { attributes: { title: string; publicationDate: string } }[]; links: Record<string, string> };
  assert.equal(doc.data.length, 5);
  const dates = doc.data.map((b) => b.attributes.publicationDate);
  assert.deepEqual(dates, [...dates].sort().reverse(), 'sorted by publication date, newest first');
  assert.ok(doc.data.every((b) => /the/i.test(b.attributes.title)));
  // The links name the same collection (filter, order, size) at other pages, in JSON:API's names.
  assert.equal(doc.links.next, '/books?sort=-publicationDate&page%5Bnumber%5D=3&page%5Bsize%5D=5&title=the');
  const next = await app.inject({ url: doc.links.next!, headers: { accept: JSONAPI } });
  assert.equal(next.statusCode, 200);
  const unsupported = await app.inject({ url: '/books?sort=nope', headers: { accept: JSONAPI } });
  assert.equal(unsupported.statusCode, 400);
  assert.equal((unsupported.json() as { errors: { detail: string }[] }).errors[0]!.detail, 'Invalid value "nope" for the query parameter "sort": expected fields to sort by among those the collection orders by.');
  // Other formats read their own parameters: sort means nothing to JSON-LD.
  assert.equal((await app.inject({ url: '/books?sort=nope', headers: { accept: 'application/ld+json' } })).statusCode, 200);
  // A refused page names the parameter as the client sent it: page[size], not itemsPerPage.
  const detail = async (url: string) => ((await app.inject({ url, headers: { accept: JSONAPI } })).json() as { errors: { detail: string }[] }).errors[0]!.detail;
  assert.equal(await detail('/books?page[size]=0'), 'Invalid value "0" for the query parameter "page[size]": expected a number from 1 (a page holds at most 100 items).');
  assert.equal(await detail('/books?page[number]=-1'), 'Invalid value "-1" for the query parameter "page[number]": expected a page number from 1 to 999999999.');
  assert.equal(await detail('/books?page[number]=1&page[number]=2'), 'The query parameter "page[number]" takes one value; it was given 2 different ones.');
  // The resource's own names, which win when both are sent, keep theirs.
  assert.equal(await detail('/books?itemsPerPage=0&page[size]=5'), 'Invalid value "0" for the query parameter "itemsPerPage": expected a number from 1 (a page holds at most 100 items).');
});

test("JSON:API include and sparse fieldsets: the issue's curl gives 5 books with their authors", async (t) => {
  const database = openDatabase('sqlite::memory:');
  const app = await createBookshop({ config: testConfig({ PROFILER: '0' }), database, tls: null, seed: { passwordCost: 1024 } });
  t.after(async () => {
    await app.close();
    await database.destroy();
  });
  const res = await app.inject({ url: '/books?include=author&fields[books]=title,author&sort=-publicationDate&page[size]=5', headers: { accept: JSONAPI } });
  assert.equal(res.statusCode, 200);
  const doc = res.json() as { data: { type: string; attributes: Record<string, unknown>; relationships?: { author?: { data: { type: string; id: string } } } }[]; included: { type: string; id: string; attributes: { name: string } }[] };
  assert.equal(doc.data.length, 5);
  for (const book of doc.data) {
    assert.deepEqual(Object.keys(book.attributes), ['title'], 'only the fields asked for');
    assert.equal(book.relationships?.author?.data.type, 'Author');
  }
  const authorIds = new Set(doc.data.map((b) => b.relationships!.author!.data.id));
  assert.deepEqual(new Set(doc.included.map((a) => a.id)), authorIds, 'every author included, once');
  assert.ok(doc.included.every((a) => a.type === 'Author' && typeof a.attributes.name === 'string'));
  // The type's own name works as well as its path segment; a relationship that does not exist is a 400.
  const byType = (await app.inject({ url: '/books/1?fields[Book]=isbn', headers: { accept: JSONAPI } })).json() as { data: { attributes: Record<string, unknown> } };
  assert.deepEqual(Object.keys(byType.data.attributes), ['isbn']);
  const bad = await app.inject({ url: '/books?include=nope', headers: { accept: JSONAPI } });
  assert.equal(bad.statusCode, 400);
  assert.equal((bad.json() as { errors: { detail: string }[] }).errors[0]!.detail, 'Invalid value "nope" for the query parameter "include": expected relationship paths of the resource, up to 3 relationships deep.');
});

test('JSON:API links keep the sparse fieldsets, and only types and fields the API has', async (t) => {
  const database = openDatabase('sqlite::memory:');
  const app = await createBookshop({ config: testConfig({ PROFILER: '0' }), database, tls: null, seed: { passwordCost: 1024 } });
  t.after(async () => {
    await app.close();
    await database.destroy();
  });
  const res = await app.inject({ url: '/books?fields[books]=title,author,secret-token&fields[nope]=x&fields[Author]=name&include=author&page[size]=2&access_token=abc', headers: { accept: JSONAPI } });
  assert.equal(res.statusCode, 200);
  const doc = res.json() as { links: Record<string, string> };
  assert.equal(doc.links.next, '/books?include=author&page%5Bsize%5D=2&fields%5Bbooks%5D=title%2Cauthor&fields%5BAuthor%5D=name&page%5Bnumber%5D=2');
  assert.doesNotMatch(JSON.stringify(doc.links), /secret-token|nope|access_token/);
  const next = (await app.inject({ url: doc.links.next!, headers: { accept: JSONAPI } })).json() as { data: { id: string; attributes: Record<string, unknown> }[]; included: { attributes: Record<string, unknown> }[] };
  assert.deepEqual(next.data.map((b) => b.id), ['3', '4']);
  assert.deepEqual(Object.keys(next.data[0]!.attributes), ['title'], 'the next page has the same fields');
  assert.deepEqual(Object.keys(next.included[0]!.attributes), ['name']);
});
