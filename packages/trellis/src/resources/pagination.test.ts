import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageLinks } from './pagination.ts';

const state = { enabled: true, page: 2, itemsPerPage: 10, partial: false };

test('links keep the other query parameters and know the last page', () => {
  assert.deepEqual(pageLinks('/books', 'title=dune&page=2', state, 25, 10), {
    self: '/books?title=dune&page=2',
    first: '/books?title=dune&page=1',
    last: '/books?title=dune&page=3',
    previous: '/books?title=dune&page=1',
    next: '/books?title=dune&page=3',
  });
});

test('without a total, next exists only after a full page', () => {
  assert.deepEqual(pageLinks('/books', '', { ...state, partial: true }, null, 4), { self: '/books?page=2', first: '/books?page=1', last: null, previous: '/books?page=1', next: null });
  assert.equal(pageLinks('/books', '', { ...state, partial: true }, null, 10).next, '/books?page=3');
});

test('an empty collection has one page', () => {
  assert.equal(pageLinks('/books', '', { ...state, page: 1 }, 0, 0).last, '/books?page=1');
});

test('links write the query as URLSearchParams would, with or without its parse', () => {
  const searches = [
    'page=2',
    'title=dune&page=2',
    'page=2&itemsPerPage=30&order[title]=asc',
    'order[title]=desc&price[gt]=3',
    'page=1&title=the&page=5&x=1',
    'title=a+b&page=2',
    'a=%41&b=%5b&page=2',
    'c&&page=2&d=%C3%A9',
    'title=&page=2',
    'ti.tle_*-=x',
  ];
  for (const search of searches) {
    const expected = (page: number) => {
      const params = new URLSearchParams(search);
      params.set('page', String(page));
      return `/books?${params.toString()}`;
    };
    const links = pageLinks('/books', search, state, 25, 10);
    assert.deepEqual(links, { self: expected(2), first: expected(1), last: expected(3), previous: expected(1), next: expected(3) }, search);
  }
});
