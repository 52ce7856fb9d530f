import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { InputValidator } from './input-validator.ts';
import { withColumnFormat } from './integer-range.ts';

test('a nullable string that breaks its rules is told those rules, not also that it should be null', () => {
  const validator = new InputValidator(
    Type.Object({
      biography: Type.Union([Type.String({ maxLength: 3 }), Type.Null()]),
      tags: Type.Array(Type.Union([Type.String({ minLength: 2 }), Type.Null()])),
      address: Type.Union([Type.Object({ city: Type.String({ maxLength: 2 }) }), Type.Null()]),
    }),
  );
  assert.deepEqual(validator.violations({ biography: 'long', tags: ['ok', 'x', 5], address: { city: 'Lyon' } }), [
    { propertyPath: 'biography', message: 'This value is too long. It should have 3 characters or less.', code: 'length' },
    { propertyPath: 'tags.1', message: 'This value is too short. It should have 2 characters or more.', code: 'length' },
    // An item of neither type: told the first type it could have.
    { propertyPath: 'tags.2', message: 'This value should be of type string.', code: 'type' },
    { propertyPath: 'address.city', message: 'This value is too long. It should have 2 characters or less.', code: 'length' },
  ]);
  assert.deepEqual(validator.violations({ biography: 7, tags: [], address: null }), [{ propertyPath: 'biography', message: 'This value should be of type string.', code: 'type' }]);
});

test('thousands of failing items are each told once, in their order (the check is linear in the errors)', () => {
  const validator = new InputValidator(Type.Object({ tags: Type.Array(Type.Union([Type.String({ maxLength: 3 }), Type.Null()])) }));
  const violations = validator.violations({ tags: Array.from({ length: 20_000 }, (_, i) => (i % 2 === 0 ? 'long' : 5)) });
  assert.equal(violations.length, 20_000);
  assert.deepEqual(violations[0], { propertyPath: 'tags.0', message: 'This value is too long. It should have 3 characters or less.', code: 'length' });
  assert.deepEqual(violations[19_999], { propertyPath: 'tags.19999', message: 'This value should be of type string.', code: 'type' });
});

test('a property\'s own errorMessage replaces the message of any rule of its schema; the code stays the rule\'s', () => {
  const validator = new InputValidator(
    Type.Object({
      rating: Type.Integer({ minimum: 0, maximum: 5, errorMessage: 'A rating is 0 to 5 stars.' }),
      note: Type.Optional(Type.Union([Type.String({ maxLength: 3, errorMessage: 'Three letters at most.' }), Type.Null()])),
      title: Type.String(),
    }),
  );
  assert.deepEqual(validator.violations({ rating: 9, note: 'abcd', title: 'x' }), [
    { propertyPath: 'rating', message: 'A rating is 0 to 5 stars.', code: 'range' },
    { propertyPath: 'note', message: 'Three letters at most.', code: 'length' },
  ]);
  assert.deepEqual(validator.violations({ rating: 'five', title: 'x' }), [{ propertyPath: 'rating', message: 'A rating is 0 to 5 stars.', code: 'type' }]);
  // Rules of the object itself keep their words.
  assert.deepEqual(validator.violations({ rating: 1 }), [{ propertyPath: 'title', message: 'This value should not be blank.', code: 'required' }]);
});

test('a fraction for an integer column is told its type once, not also a range its schema does not have', () => {
  const validator = new InputValidator(
    Type.Object({
      stars: withColumnFormat(Type.Integer({ minimum: 1, maximum: 5 })),
      count: withColumnFormat(Type.Union([Type.Integer(), Type.Null()])),
    }),
  );
  assert.deepEqual(validator.violations({ stars: 2.5, count: 1.5 }), [
    { propertyPath: 'stars', message: 'This value should be of type integer.', code: 'type' },
    { propertyPath: 'count', message: 'This value should be of type integer.', code: 'type' },
  ]);
  // A whole number the column cannot hold is still said as the range it is.
  assert.deepEqual(validator.violations({ stars: 3, count: 2 ** 31 }), [{ propertyPath: 'count', message: 'This value should be a whole number between -2147483648 and 2147483647.', code: 'range' }]);
});
