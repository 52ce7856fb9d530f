/**
 * A JSON:API client nobody here wrote (jsona) reading the running bookshop's compound documents:
 * `include` puts the related resources in `included` and jsona joins them to the primary data;
 * a related resource the user may not read is never included, so jsona keeps only its linkage.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Jsona } from 'jsona';
import { ALICE, BOB, runningBookshop } from './running-bookshop.ts';

const shop = runningBookshop();
const jsona = new Jsona();

async function get(path: string, token?: string): Promise<{ status: number; type: string | null; doc: any }> {
  const res = await fetch(`${shop.url()}${path}`, { headers: { accept: 'application/vnd.api+json', ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  return { status: res.status, type: res.headers.get('content-type'), doc: await res.json() };
}

test('the issue\'s query: five books, newest first, only title and author, their authors included', async () => {
  const { status, type, doc } = await get('/books?include=author&fields[books]=title,author&sort=-publicationDate&page[size]=5');
  assert.equal(status, 200);
  assert.equal(type, 'application/vnd.api+json');
  const books = jsona.deserialize(doc) as any[];
  assert.equal(books.length, 5);
  for (const book of books) {
    assert.equal(book.type, 'Book');
    assert.deepEqual(Object.keys(book).sort(), ['author', 'id', 'links', 'relationshipNames', 'title', 'type'], 'sparse fieldset: title and author only');
    assert.equal(book.author.type, 'Author');
    assert.equal(typeof book.author.name, 'string', `the author of book ${book.id} is joined from included`);
  }
  const dates = doc.data.map((b: any) => b.id);
  const direct = await Promise.all(dates.map(async (id: string) => (await get(`/books/${id}`)).doc.data.attributes.publicationDate as string));
  assert.deepEqual(direct, [...direct].sort().reverse(), 'sorted by publication date, newest first');
});

test('an item with two relationships included, each related resource once', async () => {
  const { doc } = await get('/books?include=author&page[size]=3');
  // Books 1–3 share their author: one resource object in included.
  assert.equal(doc.included.length, 1);
  const [dune, messiah] = jsona.deserialize(doc) as any[];
  assert.equal(dune.author.name, messiah.author.name);
  const review = jsona.deserialize((await get('/reviews/1?include=book')).doc) as any;
  assert.equal(review.book.type, 'Book');
  assert.equal(review.book.id, '1');
  assert.equal(review.book.title, 'Dune');
});

test('a nested include (book.author): jsona joins both levels', async () => {
  const { status, doc } = await get('/reviews?include=book.author&page[size]=4');
  assert.equal(status, 200);
  assert.deepEqual([...new Set(doc.included.map((r: any) => r.type))].sort(), ['Author', 'Book'], 'the intermediate books and their authors');
  for (const review of jsona.deserialize(doc) as any[]) {
    assert.equal(review.book.type, 'Book');
    assert.equal(typeof review.book.title, 'string');
    assert.equal(review.book.author.type, 'Author');
    assert.equal(typeof review.book.author.name, 'string', `the author of the book of review ${review.id}`);
  }
});

test('included passes the access rules: other people\'s accounts are linkage only, one\'s own is included', async () => {
  const anonymous = (await get('/reviews?include=author,book&page[size]=10')).doc;
  assert.ok(anonymous.data.length === 10);
  assert.deepEqual([...new Set(anonymous.included.map((r: any) => r.type))], ['Book'], 'no User may be read anonymously, none is included');
  for (const review of jsona.deserialize(anonymous) as any[]) {
    assert.equal(review.author.type, 'User');
    assert.equal(review.author.email, undefined, 'jsona has only the linkage');
  }
  const token = await shop.token(ALICE);
  const asAlice = (await get(`/reviews?include=author&filter[author][]=${ALICE.iri}&filter[author][]=/users/3&page[size]=30`, token)).doc;
  const authors = new Set(asAlice.data.map((r: any) => r.relationships.author.data.id));
  assert.deepEqual([...authors].sort(), ['2', '3'], 'reviews by Alice and Bob');
  assert.deepEqual(asAlice.included.map((r: any) => `${r.type}/${r.id}:${r.attributes.email}`), [`User/2:${ALICE.email}`], 'only Alice herself');
});

test('jsona serialises a review and the server creates it; a linkage of the wrong type is refused', async () => {
  const token = await shop.token(ALICE);
  const post = async (model: Record<string, unknown>) => {
    const res = await fetch(`${shop.url()}/reviews`, { method: 'POST', headers: { 'content-type': 'application/vnd.api+json', accept: 'application/vnd.api+json', authorization: `Bearer ${token}` }, body: JSON.stringify(jsona.serialize({ stuff: model })) });
    return { status: res.status, location: res.headers.get('location'), doc: (await res.json()) as any };
  };
  const created = await post({ type: 'Review', rating: 5, body: 'Sent by jsona.', author: { type: 'User', id: '2' }, book: { type: 'Book', id: '9' }, relationshipNames: ['author', 'book'] });
  assert.equal(created.status, 201);
  const review = jsona.deserialize(created.doc) as any;
  assert.equal(created.location, `/reviews/${review.id}`);
  assert.equal(review.body, 'Sent by jsona.');
  assert.deepEqual([review.author.type, review.author.id, review.book.type, review.book.id], ['User', '2', 'Book', '9']);
  // As Bob: refused by the rule, as a JSON:API error.
  const asBob = await post({ type: 'Review', rating: 1, body: 'x', author: { type: 'User', id: BOB.iri.split('/')[2] }, book: { type: 'Book', id: '9' }, relationshipNames: ['author', 'book'] });
  assert.equal(asBob.status, 403);
  assert.equal(asBob.doc.errors[0].detail, 'You may only post reviews as yourself.');
  const wrongType = await post({ type: 'Review', rating: 1, body: 'x', author: { type: 'Book', id: '2' }, book: { type: 'Book', id: '9' }, relationshipNames: ['author', 'book'] });
  assert.equal(wrongType.status, 400);
  assert.equal(wrongType.doc.errors[0].detail, 'The request body must be a JSON:API document whose relationship "author" links resources of type "User".');
});

test('errors are JSON:API error documents jsona\'s users can read', async () => {
  const { status, type, doc } = await get('/books?include=publisher');
  assert.equal(status, 400);
  assert.equal(type, 'application/vnd.api+json');
  assert.equal(doc.errors[0].status, '400');
  assert.equal(doc.errors[0].detail, 'Invalid value "publisher" for the query parameter "include": expected relationship paths of the resource, up to 3 relationships deep.');
});
