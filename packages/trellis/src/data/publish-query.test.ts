import assert from 'node:assert/strict';
import { test } from 'node:test';
import { channels, type DbQueryEvent } from '../observe/channels.ts';
import { ProfileScope } from '../profiler/profile-scope.ts';
import { recordedQuery } from '../profiler/recorded-query.ts';
import { publishQuery } from './publish-query.ts';

function published(run: () => void): DbQueryEvent[] {
  const events: DbQueryEvent[] = [];
  const listen = (message: unknown) => void events.push(message as DbQueryEvent);
  channels.dbQuery.subscribe(listen);
  try {
    run();
  } finally {
    channels.dbQuery.unsubscribe(listen);
  }
  return events;
}

test('a query event carries when it started, and only the optional fields that are there', () => {
  const start = performance.now();
  const [plain, counted, failed] = published(() => {
    publishQuery('select 1', [], start, undefined, undefined);
    publishQuery('select 2', [2], start, 3, undefined, true);
    publishQuery('select 3', [], start, undefined, new Error('no such table: x'));
  });
  assert.deepEqual(Object.keys(plain!), ['sql', 'parameters', 'durationMs', 'startedAt']);
  assert.equal(plain!.startedAt, start);
  assert.ok(plain!.durationMs >= 0);
  assert.deepEqual({ ...counted!, durationMs: 0 }, { sql: 'select 2', parameters: [2], durationMs: 0, startedAt: start, rows: 3, foreign: true });
  assert.equal(failed!.error, 'no such table: x');
  assert.equal(published(() => publishQuery('select 4', [], start, undefined, 'plain text')).at(0)!.error, 'plain text');
});

test('a query is placed on the request timeline where it started, else where it ended less its duration', () => {
  const scope = new ProfileScope(100);
  const event = (startedAt?: number): DbQueryEvent => ({ sql: 'select 1', parameters: [], durationMs: 2, ...(startedAt !== undefined && { startedAt }) });
  scope.addQuery((atMs) => recordedQuery(event(104.5), atMs), 2, 'select 1', 104.5);
  // Before the request's start (a clock a publisher made up): at its start.
  scope.addQuery((atMs) => recordedQuery(event(90), atMs), 2, 'select 1', 90);
  const before = performance.now();
  scope.addQuery((atMs) => recordedQuery(event(), atMs), 2, 'select 1');
  const [at, early, ended] = scope.queries.map((q) => q.atMs);
  assert.equal(at, 4.5);
  assert.equal(early, 0);
  assert.ok(ended! >= before - 100 - 2 && ended! <= performance.now() - 100 - 2 + 0.001, String(ended));
});
