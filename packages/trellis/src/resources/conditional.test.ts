import { test } from 'node:test';
import assert from 'node:assert/strict';
import { etagOf, ifMatchPasses, noneMatch } from './conditional.ts';

test('a strong ETag is a quoted digest of the exact bytes', () => {
  assert.equal(etagOf('{"a":1}'), etagOf('{"a":1}'));
  assert.notEqual(etagOf('{"a":1}'), etagOf('{"a":2}'));
  assert.match(etagOf('x'), /^"[A-Za-z0-9_-]{27}"$/);
});

test('If-None-Match: weak comparison, lists and *', () => {
  const tag = '"abc"';
  assert.equal(noneMatch(undefined, tag), true);
  assert.equal(noneMatch('"abc"', tag), false);
  assert.equal(noneMatch('W/"abc"', tag), false);
  assert.equal(noneMatch('"x", "abc"', tag), false);
  assert.equal(noneMatch('*', tag), false);
  assert.equal(noneMatch('"x"', tag), true);
});

test('If-Match: strong comparison against any current representation, * passes', () => {
  const current = () => ['"a"', '"b"'];
  assert.equal(ifMatchPasses(undefined, current), true);
  assert.equal(ifMatchPasses('"b"', current), true);
  assert.equal(ifMatchPasses('W/"b"', current), false);
  assert.equal(ifMatchPasses('"c"', current), false);
  assert.equal(ifMatchPasses('*', current), true);
});
