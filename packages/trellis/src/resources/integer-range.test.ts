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

test('bounds past 32 bits make a bigint; a resource with its own provider has no column to fit', () => {
  const files = defineResource({
    name: 'File',
    path: '/files',
    schema: Type.Object({ id: Type.Readonly(Type.Integer()), size: Type.Integer({ minimum: 0, maximum: 10_000_000_000 }), at: Type.Integer({ minimum: -(2 ** 40) }) }),
  });
  assert.equal(files.property.get('size')!.schema.format, 'int64');
  assert.equal(files.property.get('at')!.schema.format, 'int64');
  assert.equal(integerRange(files.property.get('size')!.schema).max, Number.MAX_SAFE_INTEGER);
  assert.deepEqual(new InputValidator(files.inputSchema).violations({ size: 5e9, at: -(2 ** 39) }), []);
  const remote = defineResource({ name: 'Remote', path: '/remote', schema: Type.Object({ id: Type.Readonly(Type.Integer()), n: Type.Integer() }), provider: async () => null });
  assert.equal(remote.property.get('n')!.schema.format, undefined);
  assert.equal(integerRange(remote.property.get('id')!.schema).max, Number.MAX_SAFE_INTEGER);
  assert.deepEqual(new InputValidator(remote.inputSchema).violations({ n: 2 ** 40 }), []);
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
