import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { editDistance } from './edit-distance.ts';

/** The distance by its definition, a fresh table per call. */
function reference(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length]![b.length]!;
}

test('known distances', () => {
  assert.equal(editDistance('kitten', 'sitting'), 3);
  assert.equal(editDistance('bookz', 'books'), 1);
  assert.equal(editDistance('', 'abc'), 3);
  assert.equal(editDistance('abc', ''), 3);
  assert.equal(editDistance('', ''), 0);
  assert.equal(editDistance('robots.txt', '_profiler'), 9);
});

test('generated pairs, short and past the reused row, one after another: the definition', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 90, unit: 'grapheme' }), fc.string({ maxLength: 90 }), (a, b) => {
      assert.equal(editDistance(a, b), reference(a, b));
      assert.equal(editDistance(b, a), reference(a, b));
    }),
    { numRuns: 300 },
  );
});
