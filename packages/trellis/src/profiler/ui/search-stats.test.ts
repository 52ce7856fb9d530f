import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProfileSummary } from '../profile.ts';
import { searchStats } from './search-stats.ts';
import { requestPath as pathOf } from '../../kernel/routed-path.ts';

let n = 0;
const s = (method: string, url: string, statusCode: number, durationMs: number, parent: string | null = null): ProfileSummary => ({
  token: (n++).toString(16).padStart(6, '0'), parent, ip: '127.0.0.1', method, url, time: 0, statusCode, durationMs,
});

test('counts statuses, error rates, latency buckets and the slowest routes of the main requests', () => {
  const stats = searchStats([
    s('GET', 'http://h/books?page=2', 200, 4.9),
    s('GET', 'http://h/books?page=3', 200, 5),
    s('GET', 'http://h/books', 200, 30),
    s('GET', 'http://h/robots.txt', 404, 1),
    s('GET', 'http://h/robots.txt', 404, 2, '000003'),
    s('POST', 'http://h/books', 500, 1200),
    s('POST', 'http://h/books#x', 201, 999.9),
  ]);
  assert.equal(stats.requests, 6);
  assert.deepEqual(stats.statuses, [[200, 3], [201, 1], [404, 1], [500, 1]]);
  assert.deepEqual(stats.latency, [2, 1, 0, 1, 0, 0, 0, 1, 1]);
  assert.equal(stats.serverErrorRate, 1 / 6);
  assert.equal(stats.clientErrorRate, 1 / 6);
  assert.deepEqual(stats.slowest, [
    { route: 'POST /books', count: 2, meanMs: (1200 + 999.9) / 2, maxMs: 1200 },
    { route: 'GET /books', count: 3, meanMs: (4.9 + 5 + 30) / 3, maxMs: 30 },
    { route: 'GET /robots.txt', count: 1, meanMs: 1, maxMs: 1 },
  ]);
});

test('nothing listed, or only sub-requests: zero requests and rates, empty lists', () => {
  for (const results of [[], [s('GET', 'http://h/x', 500, 1, 'abcdef')]]) {
    const stats = searchStats(results);
    assert.deepEqual(stats, { requests: 0, statuses: [], latency: [0, 0, 0, 0, 0, 0, 0, 0, 0], slowest: [], serverErrorRate: 0, clientErrorRate: 0 });
  }
});

test('at most maxRoutes routes', () => {
  const many = Array.from({ length: 9 }, (_, i) => s('GET', `http://h/r${i}`, 200, i));
  assert.deepEqual(searchStats(many, 3).slowest.map((r) => r.route), ['GET /r8', 'GET /r7', 'GET /r6']);
});

test('the path a route is listed by (kernel requestPath): the path alone, whatever the URL holds', () => {
  assert.equal(pathOf('http://h:8080/a/b?c=1#d'), '/a/b');
  assert.equal(pathOf('https://h'), '/');
  assert.equal(pathOf('https://h?x'), '/');
  assert.equal(pathOf('/origin/form?x=1'), '/origin/form');
  assert.equal(pathOf('http://h/%3Cb%3E#?'), '/%3Cb%3E');
});

test('requests are grouped by the route their path matches; a path no route matches stays itself', () => {
  const routeOf = (path: string) => (/^\/books\/[^/]+$/.test(path) ? '/books/:id' : path === '/books' ? '/books' : null);
  const listed = [s('GET', 'http://h/books/1', 200, 40), s('GET', 'http://h/books/2?x=1', 200, 20), s('GET', 'http://h/books', 200, 10), s('POST', 'http://h/books', 201, 12), s('GET', 'http://h/bookz', 404, 1)];
  assert.deepEqual(searchStats(listed, 5, routeOf).slowest, [
    { route: 'GET /books/:id', count: 2, meanMs: 30, maxMs: 40 },
    { route: 'POST /books', count: 1, meanMs: 12, maxMs: 12 },
    { route: 'GET /books', count: 1, meanMs: 10, maxMs: 10 },
    { route: 'GET /bookz', count: 1, meanMs: 1, maxMs: 1 },
  ]);
});
