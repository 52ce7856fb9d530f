import { test } from 'node:test';
import assert from 'node:assert/strict';
import { median, percentile, spread } from './stats.ts';

test('median of odd and even counts', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.ok(Number.isNaN(median([])));
});

test('median does not reorder its input', () => {
  const values = [3, 1, 2];
  median(values);
  assert.deepEqual(values, [3, 1, 2]);
});

test('nearest-rank percentiles return observed values', () => {
  const values = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.equal(percentile(values, 50), 50);
  assert.equal(percentile(values, 95), 95);
  assert.equal(percentile(values, 99), 99);
  assert.equal(percentile(values, 100), 100);
  assert.equal(percentile(values, 0), 1);
  assert.equal(percentile([7], 95), 7);
  assert.equal(percentile([10, 20, 30], 95), 30);
});

test('percentile rejects p outside 0..100', () => {
  assert.throws(() => percentile([1], 101), { name: 'RangeError', message: 'percentile must be within 0..100, got 101' });
});

test('spread reports median, range and range relative to the median', () => {
  assert.deepEqual(spread([100, 90, 110]), { median: 100, min: 90, max: 110, relative: 0.2 });
  assert.deepEqual(spread([5]), { median: 5, min: 5, max: 5, relative: 0 });
});
