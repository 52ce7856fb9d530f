import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { defineResource } from './define-resource.ts';
import { InputValidator } from './input-validator.ts';
import { fitsColumn, INT32, integerRange, withColumnFormat } from './integer-range.ts';

const task = defineResource({
  name: 'Task',
  path: '/tasks',
  schema: Type.Object({
    id: Type.Readonly(Type.Integer()),
    priority: Type.Integer(),
    estimate: Type.Union([Type.Integer(), Type.Null()]),
    views: Type.Integer({ format: 'int64' }),
    ratio: Type.Number(),
  }),
});

test('an integer property is an SQL integer unless its schema says int64; other schemas are kept', () => {
  assert.deepEqual(integerRange(task.property.get('priority')!.schema), INT32);
  assert.deepEqual(integerRange(task.property.get('estimate')!.schema), INT32);
  assert.deepEqual(integerRange(task.property.get('views')!.schema), { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
  assert.equal(task.property.get('priority')!.schema.format, 'int32');
  assert.deepEqual(task.property.get('estimate')!.schema.anyOf.map((s: { format?: string }) => s.format), ['int32', undefined]);
  const ratio = Type.Number();
  assert.equal(withColumnFormat(ratio), ratio);
  const int64 = Type.Integer({ format: 'int64' });
  assert.equal(withColumnFormat(int64), int64);
});

test('fitsColumn: whole numbers within the range only', () => {
  for (const n of [0, 1, -1, 2 ** 31 - 1, -(2 ** 31)]) assert.equal(fitsColumn(n, INT32), true, String(n));
  for (const n of [2 ** 31, -(2 ** 31) - 1, 1.5, Number.NaN, Infinity]) assert.equal(fitsColumn(n, INT32), false, String(n));
});

test('a body value its column cannot hold is a violation, said as the range', () => {
  const validator = new InputValidator(task.inputSchema);
  const ok = { priority: 2 ** 31 - 1, estimate: null, views: 2 ** 40, ratio: 1e300 };
  assert.deepEqual(validator.violations(ok), []);
  const range = 'This value should be a whole number between -2147483648 and 2147483647.';
  assert.deepEqual(validator.violations({ ...ok, priority: 2 ** 31, estimate: -(2 ** 31) - 1 }), [
    { propertyPath: 'priority', message: range, code: 'range' },
    { propertyPath: 'estimate', message: range, code: 'range' },
  ]);
});
