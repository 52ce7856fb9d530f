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
