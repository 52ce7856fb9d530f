/**
 * The bookshop tried as a new user would: browse, filter, write with merge-patch, get the errors
 * right, use conditional requests, and meet the review rules (issue 6 item 3). On SQLite and on
 * PostgreSQL.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { testConfig } from 'trellis/testing';
import { createBookshop } from '../src/bookshop.ts';
import { isValidIsbn13 } from '../src/resources/isbn.ts';
import { seedIfEmpty } from '../src/seed.ts';
import { ADMIN, ALICE, BOB, backends, type ShopDatabase } from './backends.ts';

const DOC_LINK = /^<http:\/\/localhost:80\/docs\.jsonld>; rel="http:\/\/www\.w3\.org\/ns\/hydra\/core#apiDocumentation"/;

for (const backend of await backends()) {
  describe(`the bookshop on ${backend.name}`, { skip: backend.skip }, () => {
    let app: FastifyInstance;
    let shop: ShopDatabase;
    before(async () => {
      shop = await backend.open();
      app = await createBookshop({ config: testConfig({ PROFILER: '0' }), database: shop.db, tls: null, seed: { passwordCost: 1024 } });
      await app.ready();
    });
    after(async () => {
      await app?.close();
      await shop?.close();
    });
    const req = async (method: string, url: string, options: { auth?: string; body?: unknown; type?: string; headers?: Record<string, string> } = {}) => {
      const headers: Record<string, string> = { ...options.headers };
      if (options.auth) headers.authorization = options.auth;
      if (options.body !== undefined) headers['content-type'] = options.type ?? 'application/ld+json';
      const res = await app.inject({ method: method as 'GET', url, headers, payload: options.body === undefined ? undefined : JSON.stringify(options.body) });
      assert.match(String(res.headers.link), DOC_LINK, `${method} ${url} has the Link header`);
      return res;
    };

    test('the seed: hundreds of books with valid ISBNs, three users, reviews; seeding again is a no-op', async () => {
      const books = (await req('GET', '/books')).json();
      assert.ok(books.totalItems >= 300, `${books.totalItems} books`);
      assert.ok(books.member.every((b: { isbn: string }) => isValidIsbn13(b.isbn)));
      assert.ok((await req('GET', '/reviews')).json().totalItems > 100);
      assert.equal(await seedIfEmpty(shop.db), false);
    });

    test('browse: the entrypoint, a page, an item, its plain JSON, a filtered and sorted search', async () => {
      assert.deepEqual((await req('GET', '/')).json(), { '@context': '/contexts/Entrypoint', '@id': '/', '@type': 'Entrypoint', book: '/books', author: '/authors', review: '/reviews' });
      const page2 = (await req('GET', '/books?page=2')).json();
      assert.equal(page2.member.length, 30);
      assert.equal(page2.member[0]['@id'], '/books/31');
      assert.equal(page2.view.previous, '/books?page=1');
      const dune = (await req('GET', '/books/1')).json();
      assert.equal(dune.title, 'Dune');
      assert.equal(dune.author, '/authors/1');
      assert.deepEqual(Object.keys((await req('GET', '/books/1.json')).json()), ['id', 'isbn', 'title', 'description', 'author', 'publicationDate', 'price']);
      const search = (await req('GET', '/books?title=dune&order[publicationDate]=desc')).json();
      assert.deepEqual(search.member.map((b: { title: string }) => b.title), ['Chapterhouse: Dune', 'Heretics of Dune', 'God Emperor of Dune', 'Children of Dune', 'Dune Messiah', 'Dune']);
      const byAuthor = (await req('GET', '/books?author=/authors/1&price[lt]=1000')).json();
      assert.equal(byAuthor.totalItems, 6);
    });

    test('writing books: admin only; POST, merge-patch, 422, 415, conditional requests', async () => {
      const book = { isbn: '9780441013593', title: 'Dune (40th anniversary)', author: '/authors/1', publicationDate: '2005-08-02', price: 18.5 };
      assert.equal((await req('POST', '/books', { body: book })).statusCode, 401);
      const asAlice = await req('POST', '/books', { body: book, auth: ALICE });
      assert.equal(asAlice.statusCode, 403);
      assert.equal(asAlice.json().detail, 'Only administrators may add books.');
      const created = await req('POST', '/books', { body: book, auth: ADMIN });
      assert.equal(created.statusCode, 201, created.body);
      const iri = created.json()['@id'];
      assert.equal(created.headers.location, iri);

      const patched = await req('PATCH', iri, { body: { price: 15, description: 'With an afterword.' }, type: 'application/merge-patch+json', auth: ADMIN });
      assert.equal(patched.statusCode, 200);
      assert.equal(patched.json().price, 15);
      assert.equal(patched.json().title, 'Dune (40th anniversary)');

      const bad = await req('POST', '/books', { body: { ...book, isbn: '9780441013594', price: 'cheap', title: '' }, auth: ADMIN });
      assert.equal(bad.statusCode, 422);
      assert.deepEqual(
        bad.json().violations.map((v: { propertyPath: string; message: string }) => `${v.propertyPath}: ${v.message}`),
        ['title: This value is too short. It should have 1 character or more.', 'price: This value should be of type number.'],
      );
      const badIsbn = await req('POST', '/books', { body: { ...book, isbn: '9780441013594' }, auth: ADMIN });
      assert.deepEqual(badIsbn.json().violations, [{ propertyPath: 'isbn', message: 'This value is not a valid ISBN-13.', code: 'isbn' }]);
      assert.equal((await req('PATCH', iri, { body: { price: 1 }, type: 'application/ld+json', auth: ADMIN })).statusCode, 415);
      assert.equal((await req('GET', '/books/1', { headers: { accept: 'text/csv' } })).statusCode, 406);
      assert.equal((await req('GET', '/books/1.yaml')).statusCode, 404);

      const current = await req('GET', iri);
      assert.equal((await req('GET', iri, { headers: { 'if-none-match': current.headers.etag as string } })).statusCode, 304);
      const stale = await req('PATCH', iri, { body: { price: 1 }, type: 'application/merge-patch+json', auth: ADMIN, headers: { 'if-match': '"not-the-current-one"' } });
      assert.equal(stale.statusCode, 412);
      const fresh = await req('PATCH', iri, { body: { price: 1 }, type: 'application/merge-patch+json', auth: ADMIN, headers: { 'if-match': current.headers.etag as string } });
      assert.equal(fresh.statusCode, 200);
      assert.equal((await req('DELETE', iri, { auth: ADMIN })).statusCode, 204);
    });

    test('reviews: anyone reads; users post as themselves; only the author edits and keeps authorship', async () => {
      assert.equal((await req('GET', '/reviews/1')).statusCode, 200);
      const review = { rating: 4, body: 'Still great.', book: '/books/1', author: '/users/2' };
      assert.equal((await req('POST', '/reviews', { body: review })).statusCode, 401);
      const asBob = await req('POST', '/reviews', { body: review, auth: BOB });
      assert.equal(asBob.statusCode, 403);
      assert.equal(asBob.json().detail, 'You may only post reviews as yourself.');
      const created = await req('POST', '/reviews', { body: review, auth: ALICE });
      assert.equal(created.statusCode, 201, created.body);
      const iri = created.json()['@id'];
      assert.match(created.json().publicationDate, /^\d{4}-\d{2}-\d{2}T/);

      const merge = 'application/merge-patch+json';
      const byBob = await req('PATCH', iri, { body: { rating: 0 }, type: merge, auth: BOB });
      assert.equal(byBob.statusCode, 403);
      assert.equal(byBob.json().detail, 'Only the author of a review may edit it.');
      const handOver = await req('PATCH', iri, { body: { author: '/users/3' }, type: merge, auth: ALICE });
      assert.equal(handOver.statusCode, 403);
      assert.equal(handOver.json().detail, 'You may not change the author of a review.');
      const edit = await req('PATCH', iri, { body: { rating: 5 }, type: merge, auth: ALICE });
      assert.equal(edit.statusCode, 200);
      assert.equal(edit.json().rating, 5);
      const outOfRange = await req('PATCH', iri, { body: { rating: 6 }, type: merge, auth: ALICE });
      assert.deepEqual(outOfRange.json().violations, [{ propertyPath: 'rating', message: 'This value should be less than or equal to 5.', code: 'range' }]);
      assert.equal((await req('DELETE', iri, { auth: BOB })).statusCode, 403);
      assert.equal((await req('DELETE', iri, { auth: ADMIN })).statusCode, 204);
    });

    test('users: an account is visible to itself and to administrators only', async () => {
      assert.equal((await req('GET', '/users/2')).statusCode, 401);
      assert.deepEqual((await req('GET', '/users/2.json', { auth: ALICE })).json(), { id: 2, email: 'alice@bookshop.test' });
      assert.equal((await req('GET', '/users/3', { auth: ALICE })).statusCode, 403);
      assert.equal((await req('GET', '/users/3', { auth: ADMIN })).statusCode, 200);
    });
  });
}
