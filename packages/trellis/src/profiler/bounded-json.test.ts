import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { boundedJson } from './bounded-json.ts';

test('with room for all of it, boundedJson is JSON.stringify(value, null, 2)', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      assert.equal(boundedJson(value, Number.MAX_SAFE_INTEGER), JSON.stringify(value, null, 2));
    }),
    { numRuns: 500 },
  );
  assert.equal(boundedJson({ a: undefined, b: [undefined, 1], c: {} , d: [] }, 1e9), JSON.stringify({ a: undefined, b: [undefined, 1], c: {}, d: [] }, null, 2));
});

test('cut short, it is a prefix of the whole, at least maxChars long, and built without the rest', () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.nat(400), (value, max) => {
      const whole = JSON.stringify(value, null, 2);
      const cut = boundedJson(value, max);
      assert.ok(whole.startsWith(cut), `${JSON.stringify(cut)} is not a prefix of ${JSON.stringify(whole)}`);
      assert.ok(cut.length >= Math.min(max, whole.length));
    }),
    { numRuns: 1000 },
  );
  // A 10 MB string in a large array: only its beginning is encoded.
  const huge = { items: Array.from({ length: 100_000 }, (_, i) => ({ i })), text: 'x'.repeat(10 * 2 ** 20) };
  const cut = boundedJson({ text: huge.text, items: huge.items }, 1000);
  assert.ok(cut.length < 1100, `${cut.length} characters`);
  assert.ok(cut.startsWith('{\n  "text": "xxxx'));
});
