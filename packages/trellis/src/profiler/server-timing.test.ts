import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverTiming } from './server-timing.ts';

test('phases from mark to mark, repeated ones summed, db time and count, total', () => {
  const marks = { names: ['observe', 'guard', 'handler', 'sub request', 'handler'], atUs: [0, 100, 1100, 1600, 1700] };
  assert.equal(
    serverTiming(marks, [{ durationMs: 0.25 }, { durationMs: 0.5 }], 2000),
    'observe;dur=0.100, guard;dur=1, handler;dur=0.800, sub-request;dur=0.100, db;dur=0.750;desc="2 queries", total;dur=2',
  );
  assert.equal(serverTiming({ names: ['observe'], atUs: [0] }, [{ durationMs: 1 }], 500), 'observe;dur=0.500, db;dur=1;desc="1 query", total;dur=0.500');
});

test('durations round to the microsecond, never spelled 0.1000', () => {
  assert.equal(serverTiming({ names: ['observe'], atUs: [0] }, [{ durationMs: 0.9996 }], 1999.6), 'observe;dur=2, db;dur=1;desc="1 query", total;dur=2');
  assert.equal(serverTiming({ names: ['observe'], atUs: [0] }, [], 1005), 'observe;dur=1.005, total;dur=1.005');
});
