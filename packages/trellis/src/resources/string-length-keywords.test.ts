import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Ajv } from 'ajv';
import { codePointLength, useFastStringLength } from './string-length-keywords.ts';
import { InputValidator } from './input-validator.ts';
import { Type } from '@sinclair/typebox';

const stock = new Ajv({ allErrors: true, strict: false });
const fast = new Ajv({ allErrors: true, strict: false });
useFastStringLength(fast);
// With allErrors off ajv stops at the first error: the keywords must also run in ajv's order.
const stockFirst = new Ajv({ strict: false });
const fastFirst = new Ajv({ strict: false });
useFastStringLength(fastFirst);

/** Units that count differently: ASCII, two-byte, a pair (two units, one character), lone halves. */
const awkward = fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '\ud800', '\udc00'), maxLength: 40 });

test('codePointLength counts as ajv does: a surrogate pair is one character, a lone half one', () => {
  assert.equal(codePointLength(''), 0);
  assert.equal(codePointLength('abc'), 3);
  assert.equal(codePointLength('😀😀'), 2);
  assert.equal(codePointLength('\ud800\ud800\udc00'), 2);
  assert.equal(codePointLength('\udc00\ud800'), 2);
  assert.equal(codePointLength('a\ud800'), 2);
  fc.assert(fc.property(awkward, (text) => assert.equal(codePointLength(text), [...text].length)));
});

test('maxLength and minLength decide and report exactly as ajv’s own, in the same order among the other keywords, on any string and limit', () => {
  fc.assert(
    fc.property(awkward, fc.nat(45), fc.nat(45), fc.constantFrom(undefined, '^a*$'), fc.boolean(), (text, max, min, pattern, allErrors) => {
      const schema = { type: 'object', properties: { s: { type: 'string', maxLength: max, minLength: min, ...(pattern ? { pattern } : {}) } } };
      const a = (allErrors ? stock : stockFirst).compile(schema);
      const b = (allErrors ? fast : fastFirst).compile(schema);
      const data = { s: text };
      assert.equal(b(data), a(data));
      assert.deepEqual(b.errors ?? null, a.errors ?? null);
    }),
    { numRuns: 2000 },
  );
});

test('a 900 KB string over a 10,000 limit is refused with the usual violation', () => {
  const validator = new InputValidator(Type.Object({ biography: Type.String({ maxLength: 10_000 }), name: Type.String({ minLength: 2 }) }));
  assert.deepEqual(validator.violations({ biography: 'b'.repeat(900 * 1024), name: '😀' }), [
    { propertyPath: 'biography', message: 'This value is too long. It should have 10000 characters or less.', code: 'length' },
    { propertyPath: 'name', message: 'This value is too short. It should have 2 characters or more.', code: 'length' },
  ]);
  // 10,000 emoji are 20,000 units and 10,000 characters: allowed; one more is not.
  assert.deepEqual(validator.violations({ biography: '😀'.repeat(10_000), name: 'ab' }), []);
  assert.equal(validator.violations({ biography: '😀'.repeat(10_001), name: 'ab' })[0]?.code, 'length');
});
