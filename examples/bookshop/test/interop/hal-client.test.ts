/**
 * A HAL client nobody here wrote (ketting, draft-kelly-json-hal) browsing the running bookshop:
 * it follows `next` through a collection, each `item`, and a book's `author`, and gets what the
 * server says: the same values as the plain JSON, and an error where the user may not read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ketting, type Resource } from 'ketting';
import { ALICE, runningBookshop } from './running-bookshop.ts';

const shop = runningBookshop();

/** A client that asks for HAL (or another format), optionally as a signed-in user. */
function client(path: string, token?: string, accept = 'application/hal+json'): Ketting {
  const k = new Ketting(`${shop.url()}${path}`);
  k.use(async (request, next) => {
    request.headers.set('Accept', accept);
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    return next(request);
  });
  return k;
}

test('follows next through the collection, every item, and a book\'s author', async () => {
  const first = client('/books?itemsPerPage=3').go();
  const page1 = await first.get();
  assert.equal(page1.data.totalItems, 400);
  assert.deepEqual(page1.links.getMany('item').map((l) => l.href), ['/books/1', '/books/2', '/books/3']);
  const second: Resource = await first.follow('next');
  assert.equal(second.uri, `${shop.url()}/books?itemsPerPage=3&page=2`);
  const page2 = await second.get();
  assert.deepEqual(page2.links.getMany('item').map((l) => l.href), ['/books/4', '/books/5', '/books/6']);
  assert.equal(page2.links.get('prev')?.href, '/books?itemsPerPage=3&page=1');
  const last = await (await first.follow('last')).get();
  assert.equal(last.links.get('next'), undefined, 'the last page has no next');
  assert.deepEqual(last.links.getMany('item').map((l) => l.href), ['/books/400']);

  const items = await second.followAll('item');
  assert.deepEqual(items.map((r) => r.uri), [4, 5, 6].map((id) => `${shop.url()}/books/${id}`));
  const book = await items[0]!.get();
  const plain = (await (await fetch(`${shop.url()}/books/4`, { headers: { accept: 'application/json' } })).json()) as Record<string, unknown>;
  const { author: authorIri, ...attributes } = plain;
  assert.deepEqual(book.data, attributes, 'the HAL state holds the same values as the plain JSON, relations as links');
  assert.equal(book.links.get('author')?.href, authorIri);
  const author = await (await items[0]!.follow('author')).get();
  assert.equal(author.uri, `${shop.url()}${authorIri}`);
  assert.equal(typeof author.data.name, 'string');
});

test('a relation the user may not read is a link whose target refuses them; their own opens', async () => {
  // Review 1 is Bob's: its author link leads to /users/3, which only Bob and admins may read.
  const review = client('/reviews/1').go();
  const anonymous = await review.follow('author');
  assert.equal(anonymous.uri, `${shop.url()}/users/3`);
  await assert.rejects(anonymous.get(), (error: Error & { status?: number }) => error.status === 401);
  const token = await shop.token(ALICE);
  const asAlice = await client('/reviews/1', token).go().follow('author');
  await assert.rejects(asAlice.get(), (error: Error & { status?: number }) => error.status === 403);
  const own = await client(ALICE.iri, token).go().get();
  assert.equal(own.data.email, ALICE.email);
});

test('the same walk in the formats ketting also reads: JSON:API links, and plain JSON\'s Link header (RFC 8288)', async () => {
  for (const accept of ['application/vnd.api+json', 'application/json']) {
    const first = client('/books?itemsPerPage=3&order[title]=desc', undefined, accept).go();
    const next = await first.follow('next');
    // JSON:API's links name its own parameters; they lead to the same pages.
    const query = (page: number) => (accept === 'application/json' ? `itemsPerPage=3&order%5Btitle%5D=desc&page=${page}` : `page%5Bsize%5D=3&sort=-title&page%5Bnumber%5D=${page}`);
    assert.equal(next.uri, `${shop.url()}/books?${query(2)}`, accept);
    const last = await first.follow('last');
    assert.equal(last.uri, `${shop.url()}/books?${query(134)}`, accept);
    const state = await next.get();
    assert.equal(state.links.get('prev')?.href.endsWith(accept === 'application/json' ? 'page=1' : 'page%5Bnumber%5D=1'), true, accept);
  }
  // JSON:API resource objects' self links are ketting's items.
  const items = await client('/books?itemsPerPage=2', undefined, 'application/vnd.api+json').go().followAll('item');
  assert.deepEqual(items.map((r) => r.uri), [`${shop.url()}/books/1`, `${shop.url()}/books/2`]);
});

test('a rel the document does not have is the client\'s error, not a request', async () => {
  await assert.rejects(async () => client('/books/1').go().follow('publisher'), /publisher/);
});
