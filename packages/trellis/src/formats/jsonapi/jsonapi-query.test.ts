import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonApiQuery, jsonApiSearch } from './jsonapi-query.ts';

test('sort, page and filter in the parameters the filters read', () => {
  assert.deepEqual(jsonApiQuery({ sort: '-publicationDate,title', 'page[number]': '2', 'page[size]': '5', 'filter[title]': 'dune' }), {
    sort: '-publicationDate,title',
    'page[number]': '2',
    'page[size]': '5',
    'filter[title]': 'dune',
    'order[publicationDate]': 'desc',
    'order[title]': 'asc',
    page: '2',
    itemsPerPage: '5',
    title: 'dune',
  });
  const plain = { title: 'x', page: '3' };
  assert.equal(jsonApiQuery(plain), plain, 'a query without JSON:API parameters is left as it is');
  assert.equal(jsonApiQuery({ 'page[number]': '2', page: '7' }).page, '7', 'the explicit parameter wins');
  assert.deepEqual(jsonApiQuery({ 'filter[author]': ['1', '2'] }).author, ['1', '2']);
  assert.deepEqual(jsonApiQuery({ sort: ',, ,' }), { sort: ',, ,' });
});

test('a sort field the collection does not order by is a 400 with an exact message', () => {
  assert.throws(() => jsonApiQuery({ sort: 'title,-secret' }, (p) => p === 'order[title]'), { message: 'Invalid value "-secret" for the query parameter "sort": expected fields to sort by among those the collection orders by.' });
});

test('include is the embed, nested paths too, and a path the resource lacks is a 400', () => {
  assert.equal(jsonApiQuery({ include: 'author, book' }, () => true, () => true).embed, 'author,book');
  assert.equal(jsonApiQuery({ include: 'book.author,author' }, () => true, (p) => p === 'book.author' || p === 'author').embed, 'book.author,author');
  assert.throws(() => jsonApiQuery({ include: 'author.books' }, () => true, (r) => r === 'author'), { message: 'Invalid value "author.books" for the query parameter "include": expected relationship paths of the resource, up to 3 relationships deep.' });
});

test('a relationship named many times is included once; an empty include includes nothing', () => {
  assert.equal(jsonApiQuery({ include: 'author,author, author' }).embed, 'author');
  assert.equal(jsonApiQuery({ include: '' }).embed, undefined);
});

test('jsonApiSearch: the resource\'s parameters back in JSON:API\'s names, which jsonApiQuery reads as the same query', () => {
  const internal = 'order%5Btitle%5D=desc&order%5BpublicationDate%5D=asc&itemsPerPage=5&embed=author%2Cbook.author&page=2&title=the&price%5Bgt%5D=3';
  const search = jsonApiSearch(internal);
  assert.equal(search, 'sort=-title%2CpublicationDate&page%5Bsize%5D=5&include=author%2Cbook.author&page%5Bnumber%5D=2&title=the&price%5Bgt%5D=3');
  const back = jsonApiQuery(Object.fromEntries(new URLSearchParams(search)));
  for (const [key, value] of new URLSearchParams(internal)) assert.equal(back[key], value, key);
  assert.equal(jsonApiSearch(''), '');
});
