import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { boundedJsonBytes, utf8Head } from './bounded-json-bytes.ts';

/** Strings with what JSON escapes and what UTF-8 spells in several bytes, lone surrogates among them. */
const awkwardString = fc.string({ unit: fc.constantFrom('a', 'é', '😀', '"', '\\', '\n', '\u0001', '\ud800', '\udc00', '\u2028', ' ') });
const awkwardJson = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, awkwardString, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.dictionary(awkwardString, tie('value'), { maxKeys: 5 }),
})).value;

test('with room for all of it, the bytes are JSON.stringify(value, null, 2) in UTF-8', () => {
  fc.assert(
    fc.property(fc.oneof(fc.jsonValue(), awkwardJson), (value) => {
      const whole = Buffer.from(JSON.stringify(value, null, 2));
      assert.deepEqual(boundedJsonBytes(value, whole.length + 8), whole);
    }),
    { numRuns: 800 },
  );
  const skipped = { a: undefined, b: [undefined, 1], c: {}, d: [] };
  assert.equal(boundedJsonBytes(skipped, 1000).toString(), JSON.stringify(skipped, null, 2));
});

test('cut short, the bytes are a prefix of the whole at most maxBytes long, short of it by less than a character', () => {
  fc.assert(
    fc.property(fc.oneof(fc.jsonValue(), awkwardJson), fc.nat(400), (value, max) => {
      const whole = Buffer.from(JSON.stringify(value, null, 2));
      const cut = boundedJsonBytes(value, max);
      assert.ok(cut.length <= max, `${cut.length} bytes for at most ${max}`);
      assert.deepEqual(cut, whole.subarray(0, cut.length), 'a prefix of the whole');
      // What is left out begins with a character (or an escape) that did not fit: at most 6 bytes.
      assert.ok(cut.length >= Math.min(whole.length, max - 6), `${cut.length} bytes of ${whole.length}, max ${max}`);
    }),
    { numRuns: 1500 },
  );
});

test('a surrogate pair at the limit is kept whole or not at all; a lone surrogate is escaped as JSON does', () => {
  for (let max = 1; max <= 24; max++) {
    const value = { t: `ab${'😀'.repeat(10)}`, u: 'aaaa😀' };
    const cut = boundedJsonBytes(value, max);
    assert.deepEqual(cut, Buffer.from(JSON.stringify(value, null, 2)).subarray(0, cut.length), `max ${max}`);
    assert.equal(cut.toString().includes('\\u'), false, `max ${max}: no escaped half`);
  }
  assert.equal(boundedJsonBytes('aaaa😀', 5).toString(), '"aaaa');
  assert.equal(boundedJsonBytes('\ud800x', 100).toString(), '"\\ud800x"');
  assert.equal(boundedJsonBytes('x\udc00', 100).toString(), '"x\\udc00"');
  assert.equal(boundedJsonBytes({ 'k\n"': 'v\t' }, 100).toString(), JSON.stringify({ 'k\n"': 'v\t' }, null, 2));
});

test('a 10 MB string in a large array: only its beginning is read, into a buffer of its own', () => {
  const huge = { text: 'x'.repeat(10 * 2 ** 20), items: Array.from({ length: 100_000 }, (_, i) => ({ i })) };
  const cut = boundedJsonBytes(huge, 1000);
  assert.equal(cut.length, 1000);
  assert.equal(cut.toString(), `{\n  "text": "${'x'.repeat(1000 - 13)}`);
  assert.equal(cut.buffer.byteLength, 1000, 'not a slice of the shared pool');
});

test('utf8Head keeps whole characters within the limit', () => {
  assert.equal(utf8Head('a'.repeat(5000), 1024).toString(), 'a'.repeat(1024));
  assert.equal(utf8Head(`x${'é'.repeat(5000)}`, 1024).toString(), `x${'é'.repeat(511)}`);
  assert.equal(utf8Head('😀'.repeat(3000), 1026).toString(), '😀'.repeat(256));
  assert.equal(utf8Head('short', 1024).toString(), 'short');
  assert.equal(utf8Head('', 16).length, 0);
});
