import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { editDistance } from '../resources/edit-distance.ts';
import { RouteMap } from '../kernel/routing-errors.ts';
import { MAX_TRACED, patternRegExp, routeTrace } from './route-trace.ts';

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

/** The trace as first written, a route at a time with nothing kept between calls: the definition the prepared one must give. */
function referenceTrace(routes: readonly { path: string; methods: readonly string[] }[], method: string, path: string) {
  const closeness = (pattern: string) => {
    const a = pattern.split('/');
    const b = path.split('/');
    let n = 0;
    for (let i = 1; i < Math.min(a.length, b.length); i++) {
      if (a[i] === b[i] || (a[i]!.startsWith(':') && b[i] !== '') || a[i] === '*') n++;
      else break;
    }
    return n;
  };
  const likeness = (pattern: string, common: number) => {
    const a = pattern.split('/')[common + 1];
    const b = path.split('/')[common + 1];
    if (a === undefined || b === undefined || a.startsWith(':') || a === '*') return 0;
    const longer = Math.max(a.slice(0, 64).length, b.slice(0, 64).length);
    return longer === 0 ? 0 : 1 - editDistance(a.slice(0, 64), b.slice(0, 64)) / longer;
  };
  const entries = routes.map(({ path: pattern, methods }, i) => {
    if (!patternRegExp(pattern).test(path)) return { path: pattern, methods, level: 'none', closeness: closeness(pattern), i };
    if (methods.includes(method)) return { path: pattern, methods, level: 'match', closeness: Number.MAX_SAFE_INTEGER, i };
    return { path: pattern, methods, level: 'method', closeness: Number.MAX_SAFE_INTEGER - 1, i };
  });
  const alike = (e: (typeof entries)[number]) => (e.level === 'none' ? likeness(e.path, e.closeness) : 0);
  entries.sort((x, y) => y.closeness - x.closeness || alike(y) - alike(x) || x.i - y.i);
  return entries.slice(0, MAX_TRACED).map((e) => [e.path, e.level, e.closeness > 1000 ? path.split('/').length - 1 : e.closeness]);
}

test('generated route tables and paths: the prepared trace orders and explains as the definition does', () => {
  const segment = fc.constantFrom('books', 'bookz', 'authors', 'a', ':id', ':slug', '*', '_profiler', 'reviews', 'b00ks', '', 'x.:ext', 'ünï');
  const pattern = fc.array(segment, { minLength: 0, maxLength: 4 }).map((parts) => `/${parts.join('/')}`);
  const route = fc.record({ path: pattern, methods: fc.subarray(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'], { minLength: 1 }) });
  const requestPath = fc.array(fc.constantFrom('books', 'bookz', '1', 'authors', '_profiler', 'latest', 'x.json', '', 'rëviews', 'a'.repeat(80)), { maxLength: 5 }).map((parts) => `/${parts.join('/')}`);
  fc.assert(
    fc.property(fc.uniqueArray(route, { maxLength: 70, selector: (r) => r.path }), fc.constantFrom('GET', 'PUT', 'DELETE'), requestPath, (routes, method, path) => {
      const trace = routeTrace(routes, method, path);
      assert.deepEqual(
        trace.entries.map((e) => [e.path, e.level, e.closeness]),
        referenceTrace(routes, method, path),
      );
      assert.equal(trace.omitted, Math.max(0, routes.length - MAX_TRACED));
      // Traced again from the prepared table: the same.
      assert.deepEqual(routeTrace(routes, method, path), trace);
    }),
    { numRuns: 400 },
  );
});

test("an app's route listing is one array until a route is added, and the trace follows the added route", () => {
  const map = new RouteMap();
  map.add(['GET'], '/books');
  const first = map.entries();
  assert.equal(map.entries(), first);
  assert.equal(routeTrace(first, 'GET', '/bookz').entries[0]!.path, '/books');
  map.add(['GET', 'POST'], '/bookz');
  const second = map.entries();
  assert.notEqual(second, first);
  assert.deepEqual(second.map((r) => [r.path, [...r.methods]]), [['/books', ['GET', 'HEAD']], ['/bookz', ['GET', 'HEAD', 'POST']]]);
  assert.deepEqual(routeTrace(second, 'GET', '/bookz').entries.map((e) => [e.path, e.level]), [['/bookz', 'match'], ['/books', 'none']]);
  assert.throws(() => (second as unknown as { path: string }[]).push({ path: '/x' }), TypeError, 'the shared listing cannot be changed by a caller');
});

test('a path traced again is the trace kept (frozen, shared by snapshots); 64 kept per table, the least recent let go', () => {
  const routes = [
    { path: '/books', methods: ['GET'] },
    { path: '/books/:id', methods: ['GET', 'PUT'] },
  ];
  const robots = routeTrace(routes, 'GET', '/robots.txt');
  assert.equal(routeTrace(routes, 'GET', '/robots.txt'), robots);
  assert.ok(Object.isFrozen(robots) && Object.isFrozen(robots.entries));
  // The method is part of what is traced.
  assert.equal(routeTrace(routes, 'DELETE', '/books/1').entries[0]!.why, 'The path matches, the method DELETE does not (GET, PUT).');
  assert.equal(routeTrace(routes, 'POST', '/books/1').entries[0]!.why, 'The path matches, the method POST does not (GET, PUT).');
  // Another table (another app, or routes added) has traces of its own.
  const other = routeTrace([{ path: '/robots.txt', methods: ['GET'] }], 'GET', '/robots.txt');
  assert.equal(other.entries[0]!.level, 'match');
  assert.equal(routeTrace(routes, 'GET', '/robots.txt'), robots, 'asked again: now the most recent');
  for (let i = 0; i < 63; i++) routeTrace(routes, 'GET', `/scan/${i}`);
  assert.equal(routeTrace(routes, 'GET', '/robots.txt'), robots, '64 kept: still there');
  for (let i = 63; i < 127; i++) routeTrace(routes, 'GET', `/scan/${i}`);
  const again = routeTrace(routes, 'GET', '/robots.txt');
  assert.notEqual(again, robots, 'let go after 64 others');
  assert.deepEqual(again, robots);
});
