import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import type { Filter } from '../filter.ts';
import { defineResource } from '../define-resource.ts';
import { filterContract } from '../filter.contract.ts';
import { ResourceRegistry } from '../resource-registry.ts';
import { booleanFilter } from './boolean-filter.ts';
import { dateFilter } from './date-filter.ts';
import { existsFilter } from './exists-filter.ts';
import { orderFilter } from './order-filter.ts';
import { rangeFilter } from './range-filter.ts';
import { searchFilter, type SearchStrategy } from './search-filter.ts';

const Shelf = defineResource({ name: 'Shelf', path: '/shelves', schema: Type.Object({ id: Type.Readonly(Type.Integer()), label: Type.String() }) });
const Box = defineResource({
  name: 'Box',
  path: '/boxes',
  schema: Type.Object({
    id: Type.Readonly(Type.Integer()),
    name: Type.String(),
    code: Type.String(),
    note: Type.Union([Type.String(), Type.Null()]),
    shelf: Type.Union([Type.String(), Type.Null()]),
    weight: Type.Number(),
    packedOn: Type.String({ format: 'date' }),
    sealed: Type.Boolean(),
  }),
  relations: { shelf: 'Shelf' },
});
const registry = new ResourceRegistry([Shelf, Box]);
const on = { resource: Box, registry };

filterContract(searchFilter({ name: 'ipartial', code: 'exact', note: 'iword_start', shelf: 'exact', weight: 'exact' }), {
  ...on,
  valid: [
    { name: 'dune' },
    { name: 'Other 100%_' },
    { 'name[]': ['a', 'b'] },
    { name: 'c', 'name[]': 'd' },
    { code: 'X1', note: 'sea' },
    { code: 'Y2', note: 'lake' },
    { shelf: '/shelves/3' },
    { shelf: '4' },
    { weight: '2.5' },
    { weight: '7' },
  ],
  invalid: [{ shelf: '/boxes/1' }, { weight: 'heavy' }, { name: 'ok', shelf: 'x/y' }],
});

filterContract(rangeFilter(['weight']), {
  ...on,
  valid: [{ 'weight[gt]': '1' }, { 'weight[gt]': '2.5' }, { 'weight[between]': '1..2' }, { 'weight[between]': '3..40' }, { 'weight[lt]': '9', 'weight[gte]': '0' }, { 'weight[lt]': '8', 'weight[gte]': '1' }],
  invalid: [{ 'weight[gt]': 'x' }, { 'weight[between]': '1' }, { 'weight[between]': '1..x' }, { 'weight[lte]': '1e9' }],
});

filterContract(dateFilter(['packedOn']), {
  ...on,
  valid: [{ 'packedOn[after]': '2020-01-01' }, { 'packedOn[after]': '2021-02-03' }, { 'packedOn[strictly_before]': '2020-01-01T10:00:00Z', 'packedOn[before]': '2030-01-01' }, { 'packedOn[strictly_before]': '2019-01-01', 'packedOn[before]': '2031-01-01' }],
  invalid: [{ 'packedOn[after]': 'yesterday' }, { 'packedOn[before]': '2020-13-45' }],
});

filterContract(existsFilter(['note', 'shelf']), {
  ...on,
  valid: [{ 'exists[note]': 'true' }, { 'exists[note]': '1' }, { 'exists[note]': 'false' }, { 'exists[note]': '0' }, { 'exists[shelf]': 'true', 'exists[note]': 'false' }],
  invalid: [{ 'exists[note]': 'maybe' }],
});

filterContract(booleanFilter(['sealed']), {
  ...on,
  valid: [{ sealed: 'true' }, { sealed: '1' }, { sealed: 'false' }, { sealed: '0' }],
  invalid: [{ sealed: 'yes' }],
});

filterContract(orderFilter(['name', 'weight'], { default: { weight: 'desc' } }), {
  ...on,
  valid: [{ 'order[name]': 'asc' }, { 'order[name]': 'ASC' }, { 'order[name]': 'desc' }, { 'order[weight]': 'asc', 'order[name]': 'desc' }, { 'order[name]': 'desc', 'order[weight]': 'asc' }],
  invalid: [{ 'order[name]': 'up' }],
});

test('a filter that cannot work on its properties is refused at declaration, naming the resource', () => {
  const schema = Type.Object({ id: Type.Readonly(Type.Integer()), title: Type.String(), done: Type.Boolean(), count: Type.Integer(), due: Type.String({ format: 'date-time' }) });
  const declare = (filter: Filter) => () => defineResource({ name: 'Task', path: '/tasks', schema, filters: [filter] });
  const strategies = 'expected one of exact, partial, start, end, word_start, iexact, ipartial, istart, iend, iword_start';
  const writeOnly = Type.Object({ id: Type.Readonly(Type.Integer()), title: Type.String(), pin: Type.Integer({ writeOnly: true }) });
  for (const filter of [searchFilter({ pin: 'exact' }), rangeFilter(['pin']), existsFilter(['pin']), orderFilter(['title', 'pin']), orderFilter(['title'], { default: { pin: 'asc' } })]) {
    const message = `Resource "Account": the ${filter.name} filter names "pin", a write-only property; filtering or ordering by it would disclose its values`;
    assert.throws(() => defineResource({ name: 'Account', path: '/accounts', schema: writeOnly, filters: [filter] }), (e: Error) => e.name === 'DefinitionError' && e.message === message, message);
  }
  const cases: [Filter, string][] = [
    [searchFilter({ title: 'ipartal' as SearchStrategy }), `Resource "Task": the search filter gives "title" the strategy "ipartal" (did you mean "ipartial"?); ${strategies}`],
    [searchFilter({ title: 'contains' as SearchStrategy }), `Resource "Task": the search filter gives "title" the strategy "contains"; ${strategies}`],
    [searchFilter({ titel: 'exact' }), 'Resource "Task": the search filter names unknown property "titel"'],
    [booleanFilter(['title']), 'Resource "Task": the boolean filter names "title", a string property; it filters boolean properties only'],
    [booleanFilter(['done', 'count']), 'Resource "Task": the boolean filter names "count", an integer property; it filters boolean properties only'],
    [rangeFilter(['count', 'title']), 'Resource "Task": the range filter names "title", a string property; it filters integer or number properties only'],
    [dateFilter(['due', 'count']), 'Resource "Task": the date filter names "count", an integer property; it filters date or date-time properties only'],
    [dateFilter(['title']), 'Resource "Task": the date filter names "title", a string property; it filters date or date-time properties only'],
  ];
  for (const [filter, message] of cases) {
    assert.throws(declare(filter), (e: Error) => e.name === 'DefinitionError' && e.message === message, message);
  }
  assert.deepEqual(defineResource({ name: 'Task', path: '/tasks', schema, filters: [searchFilter({ title: 'ipartial' }), booleanFilter(['done']), rangeFilter(['count']), dateFilter(['due'])] }).filters.map((f) => f.name), ['search', 'boolean', 'range', 'date']);
});
