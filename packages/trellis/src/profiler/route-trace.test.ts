import { test } from 'node:test';
import assert from 'node:assert/strict';
import { patternRegExp, routeTrace } from './route-trace.ts';

test('find-my-way patterns as regular expressions', () => {
  assert.equal(patternRegExp('/books/:id').test('/books/12'), true);
  assert.equal(patternRegExp('/books/:id').test('/books/12/x'), false);
  assert.equal(patternRegExp('/books/:id').test('/books/'), false);
  assert.equal(patternRegExp('/books.:ext').test('/books.jsonld'), true);
  assert.equal(patternRegExp('/books.:ext').test('/booksXjsonld'), false);
  assert.equal(patternRegExp('/docs/assets/*').test('/docs/assets/a/b.css'), true);
  assert.equal(patternRegExp('/n/:id(^\\d+)').test('/n/42'), true);
  assert.equal(patternRegExp('/n/:id(^\\d+)').test('/n/x'), false);
  assert.equal(patternRegExp('/a::b').test('/a:b'), true);
});

test('the trace lists the matching route first, then the path matches, then the closest', () => {
  const routes = [
    { path: '/', methods: ['GET', 'HEAD'] },
    { path: '/books', methods: ['GET', 'HEAD', 'POST'] },
    { path: '/books/:id', methods: ['GET', 'HEAD', 'PATCH', 'DELETE'] },
    { path: '/authors/:id', methods: ['GET', 'HEAD'] },
  ];
  const put = routeTrace(routes, 'PUT', '/books/1');
  assert.deepEqual(put.entries.map((e) => [e.path, e.level]), [
    ['/books/:id', 'method'],
    ['/books', 'none'],
    ['/authors/:id', 'none'],
    ['/', 'none'],
  ]);
  assert.equal(put.entries[0]!.why, 'The path matches, the method PUT does not (GET, HEAD, PATCH, DELETE).');
  assert.equal(put.omitted, 0);
  const get = routeTrace(routes, 'GET', '/books/1');
  assert.equal(get.entries[0]!.level, 'match');
  const many = routeTrace(Array.from({ length: 80 }, (_, i) => ({ path: `/r${i}`, methods: ['GET'] })), 'GET', '/nowhere');
  assert.equal(many.entries.length, 50);
  assert.equal(many.omitted, 30);
});

test('a typo: the routes most like the path come first, ahead of routes registered before them', () => {
  const routes = [
    { path: '/_profiler', methods: ['GET'] },
    { path: '/_profiler/:token', methods: ['GET'] },
    { path: '/authors', methods: ['GET'] },
    { path: '/books', methods: ['GET', 'POST'] },
    { path: '/books/:id', methods: ['GET'] },
  ];
  assert.deepEqual(routeTrace(routes, 'GET', '/bookz').entries.map((e) => e.path), ['/books', '/books/:id', '/authors', '/_profiler', '/_profiler/:token']);
  assert.deepEqual(routeTrace(routes, 'GET', '/books/1/x').entries.map((e) => e.path).slice(0, 2), ['/books/:id', '/books']);
});
