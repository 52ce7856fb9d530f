import type { PageLinks } from '../../resources/pagination.ts';

/**
 * The collection's `view` (Hydra §5.3, PartialCollectionView) as API Platform writes it, so a
 * client written against one reads the other:
 * - a collection that fits on one page and was asked for with no parameter has no view;
 * - one page asked for with parameters (filters, order, itemsPerPage) has a view that only
 *   names itself, without `page`;
 * - several pages: `@id` is this page, `first` and `last` together when the last page is known
 *   (never under partial pagination), `previous` and `next` where they exist.
 */
export function hydraView(links: PageLinks): Record<string, unknown> | null {
  const paginated = links.last === null || links.last !== links.first;
  if (paginated) {
    const view: Record<string, unknown> = { '@id': links.self, '@type': 'PartialCollectionView' };
    if (links.last !== null) {
      view.first = links.first;
      view.last = links.last;
    }
    if (links.previous !== null) view.previous = links.previous;
    if (links.next !== null) view.next = links.next;
    return view;
  }
  const q = links.self.indexOf('?');
  const path = q < 0 ? links.self : links.self.slice(0, q);
  // pagination.ts writes the page as `page=<n>`; every other pair is a parameter the client applied.
  const applied = q < 0 ? [] : links.self.slice(q + 1).split('&').filter((pair) => pair !== '' && !pair.startsWith('page='));
  if (applied.length === 0) return null;
  return { '@id': `${path}?${applied.join('&')}`, '@type': 'PartialCollectionView' };
}
