import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageLinks } from '../../resources/pagination.ts';
import { hydraView } from './hydra-view.ts';

const state = (page: number, itemsPerPage = 10, partial = false) => ({ enabled: true, page, itemsPerPage, partial });

test('several pages: this page, first and last together, previous and next where they exist', () => {
  assert.deepEqual(hydraView(pageLinks('/books', '', state(1), 25, 10)), { '@id': '/books?page=1', '@type': 'PartialCollectionView', first: '/books?page=1', last: '/books?page=3', next: '/books?page=2' });
  assert.deepEqual(hydraView(pageLinks('/books', 'title=a', state(3), 25, 5)), {
    '@id': '/books?title=a&page=3',
    '@type': 'PartialCollectionView',
    first: '/books?title=a&page=1',
    last: '/books?title=a&page=3',
    previous: '/books?title=a&page=2',
  });
});

test('partial pagination: no first and no last, next while pages are full', () => {
  assert.deepEqual(hydraView(pageLinks('/books', '', state(2, 10, true), null, 10)), { '@id': '/books?page=2', '@type': 'PartialCollectionView', previous: '/books?page=1', next: '/books?page=3' });
  assert.deepEqual(hydraView(pageLinks('/books', '', state(1, 10, true), null, 3)), { '@id': '/books?page=1', '@type': 'PartialCollectionView' }, 'a partial first page is still a page of a paginated collection');
});

test('one page: no view without parameters; with some, a view naming itself without page', () => {
  assert.equal(hydraView(pageLinks('/books', '', state(1), 4, 4)), null);
  assert.equal(hydraView(pageLinks('/books', '', state(1), 0, 0)), null, 'empty');
  assert.equal(hydraView(pageLinks('/books', 'page=1', state(1), 4, 4)), null, 'page alone is no filter');
  assert.deepEqual(hydraView(pageLinks('/books', 'title=dune&order%5Btitle%5D=asc', state(1), 2, 2)), { '@id': '/books?title=dune&order%5Btitle%5D=asc', '@type': 'PartialCollectionView' });
  assert.deepEqual(hydraView(pageLinks('/books', 'itemsPerPage=50', state(1, 50), 40, 40)), { '@id': '/books?itemsPerPage=50', '@type': 'PartialCollectionView' });
  // A page past the end of a one-page collection: still one page, as API Platform decides.
  assert.equal(hydraView(pageLinks('/books', '', state(4), 4, 0)), null);
});
