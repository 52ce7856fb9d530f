import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cutString, cutStringEnd, ellipsis, MAX_RECORD_CHARS } from './cut-string.ts';
import { redactSecrets } from './redact-secrets.ts';

test('a string over the limit is kept as its beginning and its length; shorter ones as they are', () => {
  assert.equal(cutString('short'), 'short');
  assert.equal(cutString('x'.repeat(MAX_RECORD_CHARS)), 'x'.repeat(MAX_RECORD_CHARS));
  assert.equal(cutString(`${'a'.repeat(MAX_RECORD_CHARS)}b`), `${'a'.repeat(MAX_RECORD_CHARS)}… [4,097 characters]`);
  assert.equal(cutString('abcdef', 3), 'abc… [6 characters]');
});

test('cutStringEnd finds where the kept beginning ends, in cut strings only', () => {
  const cut = cutString('y'.repeat(1_234_567), 10);
  assert.equal(cut, 'yyyyyyyyyy… [1,234,567 characters]');
  assert.equal(cutStringEnd(cut), 10);
  assert.equal(cutStringEnd('plain text'), -1);
  assert.equal(cutStringEnd('… [12 characters] and more'), -1);
  assert.equal(cutStringEnd('x… [1234 characters]'), -1, 'a length without grouping is not a note cutString writes');
});

test('redactSecrets cuts long strings at any depth in the same walk, and still redacts by key', () => {
  const long = 'z'.repeat(10_000);
  const out = redactSecrets({ a: long, nested: { list: [long, 'ok'] }, password: long, n: 5 }, undefined, 0, 8);
  assert.deepEqual(out, { a: 'zzzzzzzz… [10,000 characters]', nested: { list: ['zzzzzzzz… [10,000 characters]', 'ok'] }, password: '[redacted]', n: 5 });
  assert.equal(redactSecrets({ a: long }).a, long, 'whole by default');
});

test('ellipsis: at most maxChars units, the last an ellipsis, never half a surrogate pair', () => {
  assert.equal(ellipsis('abcdef', 6), 'abcdef');
  assert.equal(ellipsis('abcdefg', 6), 'abcde…');
  assert.equal(ellipsis('abc', 1), '…');
  assert.equal(ellipsis('abc', 0), '');
  assert.equal(ellipsis('', 0), '');
  // '😀' is two units: a cut after its first would leave a lone high surrogate.
  assert.equal(ellipsis('ab😀cd', 4), 'ab…');
  assert.equal(ellipsis('ab😀cd', 5), 'ab😀…');
  for (let max = 0; max < 12; max++) {
    const cut = ellipsis('x😀y😀😀z', max);
    assert.ok(cut.length <= max, `${max}: ${cut}`);
    assert.ok(cut.isWellFormed(), `${max}: ${JSON.stringify(cut)}`);
  }
});
