/**
 * Bad input gets a 4xx, never a 500: a sweep of malformed paths, query strings, headers and bodies
 * over every kind of route of the bookshop, on SQLite and PostgreSQL, with the profiler on (its
 * pages take request data too).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { testConfig } from 'trellis/testing';
import { createBookshop } from '../src/bookshop.ts';
import { ADMIN, ALICE, backends, type ShopDatabase } from './backends.ts';

const PATHS = [
  '/books/abc', '/books/-1', '/books/0', '/books/1.5', '/books/99999999999999999999999', '/books/1.xml', '/books/1.', '/books/%00',
  '/books?page=-1', '/books?page=abc', '/books?page=1e400', '/books?itemsPerPage=0', '/books?itemsPerPage=100000000000',
  '/books?order[title]=sideways', '/books?order[nope]=asc', '/books?order=title', '/books?price[between]=a..b', '/books?price[between]=5..',
  '/books?price[lt]=abc', '/books?price[gt][x]=1', '/books?publicationDate[after]=yesterday', '/books?publicationDate[before]=2024-13-45',
  '/books?exists[description]=maybe', '/books?title[]=a&title[]=b', '/books?title=%', '/books?title=_', "/books?title=' OR 1=1 --",
  '/books?author=/authors/abc', '/books?author=not-an-iri', '/books?embed=nope', '/books?embed=author,author,author',
  '/reviews?rating[between]=5..0', '/reviews?book=/books/999999', '/users/abc', '/authors?name=' + 'x'.repeat(5000),
  '/contexts/Nope', '/contexts/%ZZ', '/docs.nope', '/_profiler/zzzzzz', '/_profiler/abc', '/_profiler/search?limit=7', '/_profiler/search?status_code=abc',
  '/_profiler/search?start=notadate&end=x', '/_profiler/search?ip=' + '9'.repeat(300), '/_profiler/search.json?method=<script>', '/_profiler/%E0%A4%A',
  '/%', '/%zz', '/' + 'a/'.repeat(500), '/books/' + 'x'.repeat(3000),
];

const BODIES: [string, string][] = [
  ['application/ld+json', '[]'], ['application/ld+json', 'null'], ['application/ld+json', '42'], ['application/ld+json', '"text"'],
  ['application/ld+json', '{"title": {"nested": true}}'], ['application/ld+json', '{"price": "cheap", "publicationDate": "never"}'],
  ['application/ld+json', '{"author": "/authors/999999", "title": "x", "isbn": "9780000000002", "publicationDate": "2024-01-01", "price": 1}'],
  ['application/ld+json', '{"author": "/books/1"}'], ['application/ld+json', '{"author": 12}'], ['application/ld+json', '{"id": 5, "@id": "/books/9"}'],
  ['application/ld+json', '{"__proto__": {"admin": true}, "constructor": {"prototype": {"x": 1}}}'],
  ['application/ld+json', '[' .repeat(5000) + ']'.repeat(5000)], ['application/ld+json', '{"title": "' + 'x'.repeat(200_000) + '"}'],
  ['application/ld+json', '{"a":'], ['application/ld+json', ''], ['application/ld+json', '\u0000\u0001'],
  ['application/merge-patch+json', '{"price": null}'], ['application/merge-patch+json', '[1,2]'],
  ['application/vnd.api+json', '{"data": "nope"}'], ['application/vnd.api+json', '{"data": {"attributes": 5}}'],
  ['text/plain', 'hello'], ['application/x-www-form-urlencoded', 'a=b'], ['multipart/form-data; boundary=x', '--x--'],
  ['application/json; charset=latin1', '{"title":"x"}'], ['application/ld+json', '\xff\xfe'],
];

const HEADERS: Record<string, string>[] = [
  { accept: 'text/plain' }, { accept: '*/*;q=abc' }, { accept: ';;;,,,' }, { accept: 'application/ld+json;q=0' },
  { 'if-none-match': 'garbage' }, { 'if-match': '"nope"' }, { 'if-match': '*' }, { authorization: 'Bearer' }, { authorization: 'Bearer a.b.c' },
  { authorization: 'Basic' }, { authorization: 'Negotiate abc' }, { 'x-api-key': '' }, { origin: 'null' }, { referer: '<script>' },
  { 'x-forwarded-for': 'not-an-ip' }, { forwarded: 'for=;;;' },
];

for (const backend of await backends()) {
  describe(`hostile input never yields a 5xx, on ${backend.name}`, { skip: backend.skip }, () => {
    let app: FastifyInstance;
    let shop: ShopDatabase;
    before(async () => {
      shop = await backend.open();
      app = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:' }), database: shop.db, tls: null, seed: { passwordCost: 1024 } });
      await app.ready();
    });
    after(async () => {
      await app?.close();
      await shop?.close();
    });

    const check = async (method: string, url: string, headers: Record<string, string>, payload?: string) => {
      const res = await app.inject({ method: method as 'GET', url, headers, payload });
      assert.ok(res.statusCode < 500, `${method} ${url} ${JSON.stringify(headers)} ${payload?.slice(0, 60) ?? ''} → ${res.statusCode} ${res.body.slice(0, 300)}`);
      return res.statusCode;
    };

    test('malformed paths and query strings', async () => {
      const statuses = new Map<string, number>();
      for (const path of PATHS) statuses.set(path, await check('GET', path, { accept: 'application/ld+json' }));
      // Not a sweep of 200s: the bad ones are refused, each with its own 4xx.
      assert.equal(statuses.get('/books/abc'), 404);
      assert.equal(statuses.get('/books?page=abc'), 400);
      assert.equal(statuses.get('/books?order[title]=sideways'), 400);
      assert.equal(statuses.get('/books/1.xml'), 404);
      assert.equal(statuses.get('/%zz'), 400);
      for (const path of PATHS.slice(0, 12)) await check('GET', path, { accept: 'text/html' });
    });

    test('integers their column cannot hold: refused before SQL, the same on both databases', async () => {
      const get = (url: string) => app.inject({ method: 'GET', url, headers: { accept: 'application/ld+json' } });
      for (const url of ['/books/2147483648', '/books/99999999999', '/authors/2147483648', '/reviews/2147483648', '/books/2147483647']) {
        const res = await get(url);
        assert.deepEqual([res.statusCode, res.json().detail], [404, `Item not found for "${url}".`], url);
      }
      // Range bounds an integer column cannot hold are read as the rows they mean, never sent to SQL as they are.
      const ratings = async (query: string) => {
        const res = await get(`/reviews?${query}&itemsPerPage=100`);
        assert.equal(res.statusCode, 200, query);
        return [...new Set((res.json().member as { rating: number }[]).map((r) => r.rating))].sort();
      };
      assert.deepEqual(await ratings('rating%5Bgt%5D=99999999999'), []);
      assert.deepEqual(await ratings('rating%5Blte%5D=-2147483649'), []);
      assert.deepEqual(await ratings('rating%5Bgt%5D=3.5'), [4, 5]);
      assert.deepEqual(await ratings('rating%5Blte%5D=1.5'), [0, 1]);
      assert.deepEqual(await ratings('rating%5Bbetween%5D=3.2..2147483648'), [4, 5]);
      assert.deepEqual(await ratings('rating%5Bbetween%5D=2147483648..99999999999'), []);
      assert.deepEqual(await ratings('rating%5Bgte%5D=-99999999999'), [0, 1, 2, 3, 4, 5]);
      // An exact value no integer is: a 400 naming what it must be.
      const exact = await get('/reviews?book=1.5');
      assert.equal(exact.statusCode, 400);
      for (const [url, detail] of [
        ['/reviews?book=/books/2147483648', 'Invalid value "/books/2147483648" for the query parameter "book": expected an IRI of Book.'],
        ['/books?author=2147483648', 'Invalid value "2147483648" for the query parameter "author": expected an IRI of Author.'],
      ]) {
        const res = await get(url);
        assert.deepEqual([res.statusCode, res.json().detail], [400, detail], url);
      }
      const review = await app.inject({
        method: 'POST', url: '/reviews', headers: { authorization: ALICE, 'content-type': 'application/ld+json', accept: 'application/ld+json' },
        payload: JSON.stringify({ rating: 3, body: 'x', author: '/users/2', book: '/books/2147483648' }),
      });
      assert.equal(review.statusCode, 422, review.body);
      assert.deepEqual(review.json().violations.map((v: { propertyPath: string }) => v.propertyPath), ['book']);
    });

    test('malformed bodies on every write operation', async () => {
      const targets: [string, string, string][] = [
        ['POST', '/books', ADMIN], ['PUT', '/books/1', ADMIN], ['PATCH', '/books/1', ADMIN], ['POST', '/authors', ADMIN],
        ['POST', '/reviews', ALICE], ['PATCH', '/reviews/1', ALICE], ['POST', '/auth', ''],
      ];
      for (const [method, url, auth] of targets) {
        for (const [type, body] of BODIES) {
          const status = await check(method, url, { 'content-type': type, ...(auth ? { authorization: auth } : {}) }, body);
          assert.ok(status >= 400 || type.includes('json'), `${method} ${url} ${type} accepted a non-JSON body with ${status}`);
        }
      }
    });

    test('input whose size drives recursion or SQL size: exact 400s', async () => {
      const deepPatch = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
      const patch = await app.inject({ method: 'PATCH', url: '/books/1', headers: { authorization: ADMIN, 'content-type': 'application/merge-patch+json' }, payload: deepPatch });
      assert.equal(patch.statusCode, 400);
      assert.equal(patch.json().detail, 'The JSON request body nests deeper than 64 levels.');
      assert.equal(patch.json().code, 'json_too_deep');
      for (const type of ['application/ld+json', 'application/json', 'application/vnd.api+json']) {
        const r = await app.inject({ method: 'POST', url: '/books', headers: { authorization: ADMIN, 'content-type': type }, payload: '['.repeat(100_000) });
        assert.equal(r.json().detail, 'The JSON request body nests deeper than 64 levels.', type);
      }
      const many = await app.inject({ url: `/books?${Array.from({ length: 999 }, (_, i) => `title=t${i}`).join('&')}`, headers: { accept: 'application/ld+json' } });
      assert.equal(many.statusCode, 400);
      assert.equal(many.json().detail, 'The query parameter "title" takes at most 100 values; 999 were given.');
      const listed = await app.inject({ url: `/books?${Array.from({ length: 101 }, (_, i) => `title[]=t${i}`).join('&')}`, headers: { accept: 'application/ld+json' } });
      assert.equal(listed.json().detail, 'The query parameter "title" takes at most 100 values; 101 were given.');
      const atCap = await app.inject({ url: `/books?${Array.from({ length: 100 }, (_, i) => `title=t${i}`).join('&')}`, headers: { accept: 'application/ld+json' } });
      assert.equal(atCap.statusCode, 200);
      const spread = ['title', 'isbn', 'author', 'price[gt]', 'price[lt]'].flatMap((name) => Array.from({ length: 70 }, (_, i) => `${name}=${i}`)).join('&');
      const total = await app.inject({ url: `/books?${spread}`, headers: { accept: 'application/ld+json' } });
      assert.equal(total.statusCode, 400);
      assert.equal(total.json().detail, 'The query string carries at most 300 values; 350 were given.');
    });

    test('property: no body depth, filter count or parameter shape yields a 5xx', async () => {
      const fc = (await import('fast-check')).default;
      const names = ['title', 'title[]', 'isbn', 'author', 'author[]', 'price[gt]', 'price[between]', 'order[title]', 'order[price]', 'exists[description]', 'publicationDate[after]', 'page', 'itemsPerPage', 'embed', 'x[y][z]', '%5B', 'a]b'];
      const value = fc.oneof(fc.string({ maxLength: 12 }), fc.integer().map(String), fc.constantFrom('', '%', '_', '/authors/1', 'asc', 'desc', '1..2', 'true', '2024-01-01', '%ZZ'));
      const pair = fc.tuple(fc.constantFrom(...names), value).map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
      const query = fc.tuple(fc.array(pair, { maxLength: 30 }), fc.nat({ max: 1200 }), fc.constantFrom(...names)).map(([pairs, repeat, name]) => [...pairs, ...Array.from({ length: repeat }, (_, i) => `${name}=${i}`)].join('&'));
      await fc.assert(
        fc.asyncProperty(query, async (q) => {
          const r = await app.inject({ url: `/books?${q}`, headers: { accept: 'application/ld+json' } });
          return r.statusCode < 500;
        }),
        { numRuns: 60 },
      );
      const json = fc.letrec<{ node: unknown }>((tie) => ({ node: fc.oneof({ depthSize: 'small' }, fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('title', 'price', 'author', 'a'), tie('node'), { maxKeys: 3 })) })).node;
      const body = fc.oneof(
        json.map((v) => JSON.stringify(v)),
        fc.tuple(fc.nat({ max: 20_000 }), fc.constantFrom('[', '{"a":', '{"title":')).map(([n, open]) => open.repeat(n) + '1' + (open === '[' ? ']' : '}').repeat(n)),
      );
      await fc.assert(
        fc.asyncProperty(body, fc.constantFrom('PATCH', 'PUT', 'POST'), async (payload, method) => {
          const url = method === 'POST' ? '/books' : '/books/2';
          const type = method === 'PATCH' ? 'application/merge-patch+json' : 'application/ld+json';
          const r = await app.inject({ method, url, headers: { authorization: ADMIN, 'content-type': type }, payload });
          return r.statusCode < 500;
        }),
        { numRuns: 60 },
      );
    });

    test('odd headers on reads and writes', async () => {
      for (const headers of HEADERS) {
        await check('GET', '/books/1', headers);
        await check('GET', '/books?page=2', headers);
        await check('DELETE', '/reviews/999999', headers);
        await check('PATCH', '/books/2', { ...headers, 'content-type': 'application/merge-patch+json' }, '{"price": 3}');
      }
    });
  });
}
