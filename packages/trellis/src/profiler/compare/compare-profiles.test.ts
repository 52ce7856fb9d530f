import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Profile } from '../profile.ts';
import { compareProfiles, statementShape } from './compare-profiles.ts';

const query = (sql: string, durationMs: number) => ({ sql, formatted: sql, parameters: [], durationMs, atMs: 0, error: null, statement: 1, runnable: sql, rows: null, stage: null });

function profile(token: string, over: { status?: number; durationMs?: number; collectors?: Record<string, unknown> } = {}): Profile {
  return {
    token, parent: null, ip: '127.0.0.1', method: 'GET', url: `http://localhost/books?t=${token}`, time: 1_700_000_000_000,
    statusCode: over.status ?? 200, durationMs: over.durationMs ?? 10, children: [], collectors: over.collectors ?? {},
  };
}

describe('statementShape', () => {
  test('literals, numbered placeholders and placeholder lists fold; case and spacing do not count', () => {
    assert.equal(statementShape('SELECT * FROM books WHERE id IN (?, ?, ?)  LIMIT 10'), 'select * from books where id in (?…) limit ?');
    assert.equal(statementShape('select * from books where id in (?,?) limit 20'), 'select * from books where id in (?…) limit ?');
    assert.equal(statementShape("SELECT * FROM t1 WHERE title = 'it''s' AND n = $2"), 'select * from t1 where title = ? and n = ?');
  });

  test('a huge statement is shaped without blowing up', () => {
    const sql = `SELECT * FROM books WHERE id IN (${Array.from({ length: 50_000 }, () => '?').join(', ')})`;
    assert.equal(statementShape(sql), 'select * from books where id in (?…)');
  });
});

describe('compareProfiles', () => {
  const a = profile('aaaaaa', {
    durationMs: 10,
    collectors: {
      time: { startTime: 0, durationMs: 10, memory: null, phases: [{ name: 'route', startMs: 0, durationMs: 1 }, { name: 'provide', startMs: 1, durationMs: 8 }, { name: 'serialize', startMs: 9, durationMs: 1 }] },
      db: { queries: [query('SELECT * FROM books LIMIT 10', 3), query('SELECT count(*) FROM books', 1), query('SELECT * FROM tags WHERE id = ?', 0.5)], statements: [], count: 3, durationMs: 4.5, failed: 0, notKept: 0, slowMs: 100 },
      request: { headers: { accept: 'application/json', 'x-old': '1', 'user-agent': 'curl/8' }, body: { text: null, size: 0, truncated: false } },
      response: { statusCode: 200, headers: { 'content-type': 'application/ld+json', etag: '"a"', 'x-debug-token': 'aaaaaa', 'Server-Timing': 'total;dur=10' }, size: 1200, contentType: null, body: { text: null, size: 1200, truncated: false }, cookies: {} },
    },
  });
  const b = profile('bbbbbb', {
    status: 500,
    durationMs: 250.5,
    collectors: {
      time: { startTime: 0, durationMs: 250.5, memory: null, phases: [{ name: 'route', startMs: 0, durationMs: 1 }, { name: 'parse', startMs: 1, durationMs: 0.5 }, { name: 'provide', startMs: 1.5, durationMs: 240 }, { name: 'error', startMs: 241.5, durationMs: 9 }] },
      db: {
        queries: [query('SELECT * FROM books LIMIT 20', 3.2), query('select count(*)   from books', 40), ...Array.from({ length: 5 }, (_, i) => query(`SELECT * FROM authors WHERE id = ${i}`, 2))],
        statements: [], count: 7, durationMs: 53.2, failed: 0, notKept: 0, slowMs: 100,
      },
      request: { headers: { accept: 'text/html', 'user-agent': 'curl/8', authorization: '[redacted]' }, body: { text: null, size: 42, truncated: false } },
      response: { statusCode: 500, headers: { 'content-type': 'application/problem+json', etag: '"a"', 'set-cookie': ['a=[redacted]', 'b=1'], 'x-debug-token': 'bbbbbb', 'x-debug-token-link': '/_profiler/bbbbbb' }, size: 300, contentType: null, body: { text: null, size: 300, truncated: false }, cookies: {} },
    },
  });
  const c = compareProfiles(a, b);

  test('status, duration and body sizes side by side', () => {
    assert.deepEqual(c.status, { a: 200, b: 500, changed: true });
    assert.deepEqual(c.durationMs, { a: 10, b: 250.5, delta: 240.5 });
    assert.deepEqual(c.responseBytes, { a: 1200, b: 300, delta: -900 });
    assert.deepEqual(c.requestBytes, { a: 0, b: 42, delta: 42 });
    assert.equal(c.a.token, 'aaaaaa');
    assert.equal(c.b.token, 'bbbbbb');
  });

  test('phases by name, in the order they ran, with those only one side had where they ran', () => {
    assert.deepEqual(c.phases, [
      { name: 'route', a: 1, b: 1, delta: 0 },
      { name: 'parse', a: null, b: 0.5, delta: null },
      { name: 'provide', a: 8, b: 240, delta: 232 },
      { name: 'error', a: null, b: 9, delta: null },
      { name: 'serialize', a: 1, b: null, delta: null },
    ]);
    assert.deepEqual(compareProfiles(b, a).phases.map((p) => p.name), ['route', 'parse', 'provide', 'serialize', 'error']);
  });

  test('queries matched by shape: added, removed, changed, the biggest change in time first', () => {
    assert.deepEqual(c.queries.count, { a: 3, b: 7, delta: 4 });
    assert.deepEqual(c.queries.durationMs, { a: 4.5, b: 53.2, delta: 48.7 });
    assert.equal(c.queries.added, 1);
    assert.equal(c.queries.removed, 1);
    assert.equal(c.queries.changed, 1, 'count(*) went from 1 to 40 ms; the LIMIT 10/20 page is the same shape and about as fast');
    assert.deepEqual(c.queries.shapes.map((s) => [s.change, s.shape, s.deltaMs]), [
      ['changed', 'select count(*) from books', 39],
      ['added', 'select * from authors where id = ?', 10],
      ['removed', 'select * from tags where id = ?', -0.5],
      ['same', 'select * from books limit ?', 0.2],
    ]);
    assert.deepEqual(c.queries.shapes[1]!.b, { count: 5, durationMs: 10 });
    assert.equal(c.queries.shapes[1]!.a, null);
  });

  test('headers added, removed and changed, for the request and the response; redacted values stay redacted; the profile\'s own headers left out', () => {
    assert.deepEqual(c.headers.request, {
      added: [{ name: 'authorization', value: '[redacted]' }],
      removed: [{ name: 'x-old', value: '1' }],
      changed: [{ name: 'accept', a: 'application/json', b: 'text/html' }],
    });
    assert.deepEqual(c.headers.response, {
      added: [{ name: 'set-cookie', value: 'a=[redacted], b=1' }],
      removed: [],
      changed: [{ name: 'content-type', a: 'application/ld+json', b: 'application/problem+json' }],
    });
  });

  test('a profile without collectors (older, or a collector failed) compares as missing sides, never throws', () => {
    const bare = profile('cccccc', { collectors: { db: { error: 'collector failed' }, response: null } });
    const d = compareProfiles(bare, a);
    assert.deepEqual(d.queries.count, { a: null, b: 3, delta: null });
    assert.equal(d.queries.added, 3);
    assert.deepEqual(d.responseBytes, { a: null, b: 1200, delta: null });
    assert.deepEqual(d.phases.map((p) => p.a), [null, null, null]);
    assert.deepEqual(d.headers.request.added.map((h) => h.name), ['accept', 'user-agent', 'x-old']);
  });

  test('a profile compared with itself differs in nothing', () => {
    const same = compareProfiles(a, a);
    assert.equal(same.status.changed, false);
    assert.deepEqual([same.queries.added, same.queries.removed, same.queries.changed], [0, 0, 0]);
    assert.deepEqual(same.headers.response, { added: [], removed: [], changed: [] });
    assert.ok(same.phases.every((p) => p.delta === 0));
  });
});
