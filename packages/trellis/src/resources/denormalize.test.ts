import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_LISTED_VIOLATIONS, validationFailed } from './denormalize.ts';
import type { Violation } from './violation.ts';

const unknown = (n: number): Violation[] => Array.from({ length: n }, (_, i) => ({ propertyPath: `k${i}`, message: 'This field was not expected.', code: 'unknown_field' }));
const detailOf = (violations: Violation[]) => validationFailed(violations).message.split('\n');
const listedOf = (violations: Violation[]) => (validationFailed(violations).extensions as { violations: Violation[] }).violations;

test('up to the limit every violation is listed, in the detail and in the violations member', () => {
  assert.equal(MAX_LISTED_VIOLATIONS, 100);
  const all = unknown(100);
  assert.deepEqual(listedOf(all), all);
  assert.deepEqual(detailOf(all), all.map((v) => `${v.propertyPath}: This field was not expected.`));
  assert.deepEqual(detailOf([{ propertyPath: '', message: 'This value should be of type object.', code: 'type' }]), ['This value should be of type object.']);
});

test('past it, the first hundred are listed and one line counts the rest', () => {
  const one = unknown(101);
  assert.deepEqual(listedOf(one), one.slice(0, 100));
  assert.equal(detailOf(one).length, 101);
  assert.equal(detailOf(one).at(-1), '1 more violation is not listed.');
  const many = unknown(70_000);
  assert.equal(listedOf(many).length, 100);
  assert.equal(detailOf(many)[99], 'k99: This field was not expected.');
  assert.equal(detailOf(many).at(-1), '69,900 more violations are not listed.');
});
