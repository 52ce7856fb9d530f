import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEEP_ALL, keepPolicy, parseOnly } from './keep-policy.ts';

test('by default every request is kept', () => {
  assert.equal(keepPolicy({ sample: 1, only: null }), KEEP_ALL);
});

test('sampling keeps its share, and every failure and slow request', () => {
  let n = 0;
  const policy = keepPolicy({ sample: 0.25, only: null }, () => [0.1, 0.3, 0.6, 0.9][n++ % 4]!);
  assert.deepEqual([1, 2, 3, 4].map(() => policy.keeps(200, 5)), [true, false, false, false]);
  assert.equal(policy.keeps(404, 5), true);
  assert.equal(policy.keeps(500, 5), true);
  assert.equal(policy.keeps(200, 1500), true);
  assert.equal(keepPolicy({ sample: 0, only: null }, () => 0).keeps(200, 5), false);
});

test('only errors, only slow, or both', () => {
  const errors = keepPolicy({ sample: 1, only: parseOnly('errors') });
  assert.deepEqual([errors.keeps(200, 5000), errors.keeps(302, 1), errors.keeps(422, 1), errors.keeps(503, 1)], [false, false, true, true]);
  const slow = keepPolicy({ sample: 1, only: parseOnly('slow:200') });
  assert.deepEqual([slow.keeps(500, 10), slow.keeps(200, 199), slow.keeps(200, 200)], [false, false, true]);
  const both = keepPolicy({ sample: 1, only: parseOnly('errors, slow:200') });
  assert.deepEqual([both.keeps(500, 10), both.keeps(200, 300), both.keeps(200, 10)], [true, true, false]);
});

test('PROFILER_ONLY values are checked', () => {
  assert.equal(parseOnly(''), null);
  assert.throws(() => parseOnly('slow'), { message: 'expected errors, slow:<ms> or both (errors,slow:500), got "slow"' });
  assert.throws(() => parseOnly('errors,fast:1'), /got "errors,fast:1"/);
});
