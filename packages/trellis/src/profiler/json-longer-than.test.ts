import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { jsonLongerThan } from './json-longer-than.ts';

test('a value whose JSON is longer than the limit is found so; one that fits is not', () => {
  assert.equal(jsonLongerThan({ a: 'x'.repeat(10) }, 100), false);
  assert.equal(jsonLongerThan({ a: 'x'.repeat(200) }, 100), true);
  assert.equal(jsonLongerThan([1, 2, 3], 7), false); // "[1,2,3]" is 7 characters
  assert.equal(jsonLongerThan([1, 2, 3], 6), true);
  assert.equal(jsonLongerThan({ k: 'v' }, 9), false); // {"k":"v"} is 9 characters
  assert.equal(jsonLongerThan({ k: 'v' }, 8), true);
});

test('the count is a lower bound of JSON.stringify: it never says longer of a value that fits', () => {
  const json = fc.oneof(fc.jsonValue(), fc.object(), fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(undefined), fc.date())));
  fc.assert(
    fc.property(json, fc.nat(400), (value, limit) => {
      const text = JSON.stringify(value);
      if (text !== undefined && text.length <= limit) assert.equal(jsonLongerThan(value, limit), false);
    }),
    { numRuns: 2000 },
  );
});

test('a 900 KB field is found long at once, without encoding it', () => {
  const body = { rating: 5, comment: 'y'.repeat(900 * 1024) };
  assert.equal(jsonLongerThan(body, 4096), true);
});

test('a BigInt, a cycle nested past the depth bound, and a Date count as JSON does or as long', () => {
  assert.equal(jsonLongerThan({ n: 1n }, 4096), true);
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.equal(jsonLongerThan(cyclic, 4096), true);
  assert.equal(jsonLongerThan({ at: new Date(0) }, 4096), false);
});
