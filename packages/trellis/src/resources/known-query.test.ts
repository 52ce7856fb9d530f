import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { defineResource } from './define-resource.ts';
import { orderFilter } from './filters/order-filter.ts';
import { searchFilter } from './filters/search-filter.ts';
import { knownQuery } from './known-query.ts';

const Book = defineResource({
  name: 'Book',
  path: '/books',
  schema: Type.Object({ id: Type.Readonly(Type.Integer()), title: Type.String() }),
  filters: [searchFilter({ title: 'ipartial' }), orderFilter(['title'])],
});

test('links keep the filters, pagination and embed, and drop every other parameter', () => {
  assert.equal(knownQuery(Book, ''), '');
  assert.equal(knownQuery(Book, 'title=dune&page=2'), 'title=dune&page=2');
  assert.equal(knownQuery(Book, 'access_token=s3cr3t&title=dune&page=1'), 'title=dune&page=1');
  assert.equal(knownQuery(Book, 'order[title]=asc&api_key=k&itemsPerPage=5&embed=author'), 'order[title]=asc&itemsPerPage=5&embed=author');
  assert.equal(knownQuery(Book, 'order%5Btitle%5D=desc&password=x'), 'order%5Btitle%5D=desc', 'encoded brackets are the same key');
  assert.equal(knownQuery(Book, 'title[]=a&title[]=b&token'), 'title[]=a&title[]=b');
  assert.equal(knownQuery(Book, '%ZZ=1&page=1&&'), 'page=1', 'malformed and empty pairs go');
  assert.equal(knownQuery(Book, 'secret=1'), '');
});
