import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { packRouteTrace, packRouting, unpackRouteTrace, unpackRouting } from './packed-route-trace.ts';
import { routeTrace } from './route-trace.ts';

const ROUTES = [
  { path: '/', methods: ['GET', 'HEAD'] },
  { path: '/books', methods: ['GET', 'HEAD', 'POST'] },
  { path: '/books/:id', methods: ['GET', 'HEAD', 'PATCH', 'DELETE'] },
  { path: '/_profiler/:token', methods: ['GET', 'HEAD'] },
  ...Array.from({ length: 60 }, (_, i) => ({ path: `/r${i}/:id`, methods: ['GET'] })),
];

test('a trace packed and unpacked is the trace, its sentences included, for every level', () => {
  for (const [method, path] of [
    ['PUT', '/books/1'],
    ['GET', '/books/1'],
    ['GET', '/bookz'],
    ['DELETE', '/_profiler/abc123'],
  ] as const) {
    const trace = routeTrace(ROUTES, method, path);
    assert.deepEqual(unpackRouteTrace(packRouteTrace(trace), method), { entries: [...trace.entries], omitted: trace.omitted });
  }
  const put = unpackRouteTrace(packRouteTrace(routeTrace(ROUTES, 'PUT', '/books/1')), 'PUT');
  assert.deepEqual(put.entries[0], { path: '/books/:id', methods: ['GET', 'HEAD', 'PATCH', 'DELETE'], level: 'method', closeness: 2, why: 'The path matches, the method PUT does not (GET, HEAD, PATCH, DELETE).' });
  assert.equal(put.omitted, 14);
});

test('packed, a trace is less than half its text as objects: what every 404 snapshot carries', () => {
  const trace = routeTrace(ROUTES, 'GET', '/robots.txt');
  const packed = packRouteTrace(trace);
  const whole = JSON.stringify(trace);
  assert.ok(packed.length * 2 < whole.length, `${packed.length} against ${whole.length}`);
  assert.equal(packRouteTrace(trace), packed);
});

test('a routing record: without a trace as it is; with one, its trace as text; an object trace (stored before) read as it is', () => {
  const plain = { path: '/books/1', methods: ['GET', 'HEAD'] };
  assert.equal(packRouting(plain), plain);
  const trace = routeTrace(ROUTES, 'GET', '/nowhere');
  const packed = packRouting({ path: '/nowhere', methods: null, trace });
  assert.equal(typeof packed.trace, 'string');
  assert.deepEqual(JSON.parse(JSON.stringify(unpackRouting(JSON.parse(JSON.stringify(packed)), 'GET'))), JSON.parse(JSON.stringify({ path: '/nowhere', methods: null, trace })));
  const older = JSON.parse(JSON.stringify({ path: '/nowhere', methods: null, trace }));
  assert.equal(unpackRouting(older, 'GET'), older);
});

test('generated route tables, patterns of any text (quotes, backslashes, markup, lone surrogates): packed and unpacked, the same trace', () => {
  const route = fc.record({ path: fc.string({ maxLength: 40, unit: 'binary' }).map((p) => `/${p}`), methods: fc.subarray(['GET', 'HEAD', 'POST', 'PUT'], { minLength: 1 }) });
  fc.assert(
    fc.property(fc.uniqueArray(route, { maxLength: 60, selector: (r) => r.path }), fc.constantFrom('GET', 'PUT'), fc.string({ maxLength: 30 }), (routes, method, tail) => {
      const trace = routeTrace(routes, method, `/${tail}`);
      // Through the text a snapshot is stored as, and back.
      const stored = JSON.parse(JSON.stringify({ trace: packRouteTrace(trace) })) as { trace: string };
      assert.deepEqual(unpackRouteTrace(stored.trace, method), { entries: [...trace.entries], omitted: trace.omitted });
    }),
    { numRuns: 300 },
  );
});
