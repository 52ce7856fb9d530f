import { test } from 'node:test';
import assert from 'node:assert/strict';
import { routedPath } from './routed-path.ts';

test('the path is the one the router matches, however the request spelled it', () => {
  const cases: [string, string][] = [
    ['/_profiler/latest', '/_profiler/latest'],
    ['/%5Fprofiler/search.json', '/_profiler/search.json'],
    ['/%5fprofiler/search.json', '/_profiler/search.json'],
    ['/_profile%72/latest', '/_profiler/latest'],
    ['/%5F%70%72%6F%66%69%6C%65%72/latest?x=1', '/_profiler/latest'],
    ['http://example.test/_profiler/latest?x', '/_profiler/latest'],
    ['HTTPS://example.test:8443/%61dmin/x', '/admin/x'],
    ['http://example.test', '/'],
    ['http://example.test?q=1', '/'],
    ['/_profiler%2Fsearch.json', '/_profiler%2Fsearch.json'],
    ['/books/1#frag', '/books/1'],
    ['/bad%zz', '/bad%zz'],
    ['//_profiler', '//_profiler'],
    ['/./_profiler', '/./_profiler'],
  ];
  for (const [url, path] of cases) assert.equal(routedPath(url), path, url);
});
