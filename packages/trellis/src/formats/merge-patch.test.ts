import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergePatch } from './merge-patch.ts';

// The examples of RFC 7396 Appendix A.
const CASES: [unknown, unknown, unknown][] = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [['a', 'b'], ['c', 'd'], ['c', 'd']],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

test('RFC 7396 Appendix A examples', () => {
  for (const [target, patch, result] of CASES) assert.deepEqual(mergePatch(target, patch), result, JSON.stringify([target, patch]));
});

test('inputs are not modified', () => {
  const target = { a: { b: 1 } };
  mergePatch(target, { a: { b: 2 } });
  assert.deepEqual(target, { a: { b: 1 } });
});

test('a patch 100,000 levels deep merges without exhausting the stack', () => {
  let patch: Record<string, unknown> = { leaf: 1 };
  for (let i = 0; i < 100_000; i++) patch = { n: patch };
  let merged = mergePatch({ n: { keep: true } }, patch) as Record<string, unknown>;
  assert.equal((merged.n as Record<string, unknown>).keep, true);
  for (let i = 0; i < 100_000; i++) merged = merged.n as Record<string, unknown>;
  assert.deepEqual(merged, { leaf: 1 });
});
