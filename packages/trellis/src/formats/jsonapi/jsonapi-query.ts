import type { QueryParams } from '../../resources/state-provider.ts';
import { invalidFilter } from '../../resources/filters/invalid-filter.ts';
import { MAX_EMBED_DEPTH } from '../../resources/embed-paths.ts';
import type { PageParameterNames } from '../../resources/pagination.ts';

const FILTER = /^filter\[([^\]]+)\]$/;

/**
 * A JSON:API collection query (JSON:API 1.1: `sort`, `page[number]`, `page[size]`, `filter[…]`)
 * in the parameters the resource's filters and pagination read: `sort=-publicationDate,title`
 * is `order[publicationDate]=desc&order[title]=asc`, `page[number]` is `page`, `page[size]` is
 * `itemsPerPage` (within the resource's maximum), `filter[title]=dune` is `title=dune`. A
 * parameter given both ways keeps the explicit one. Applied only when JSON:API was negotiated.
 */
/**
 * The inverse, for the links of a JSON:API document: a query string in the resource's parameters
 * (`order[title]=desc&order[isbn]=asc&itemsPerPage=5&embed=author&page=2`) in JSON:API's own
 * (`sort=-title,isbn&page[size]=5&include=author&page[number]=2`), so a JSON:API client sees the
 * names it sent. Filters keep their names: `filter[title]` reads as `title`, and `price[gt]` has
 * no `filter[…]` spelling.
 */
export function jsonApiSearch(search: string): string {
  if (search === '') return search;
  const out = new URLSearchParams();
  const sort: string[] = [];
  for (const [key, value] of new URLSearchParams(search)) {
    const order = /^order\[([^\]]+)\]$/.exec(key);
    if (order) {
      if (sort.length === 0) out.append('sort', '');
      sort.push(value === 'desc' ? `-${order[1]}` : order[1]!);
    } else if (key === 'embed') out.append('include', value);
    else if (key === 'itemsPerPage') out.append('page[size]', value);
    else if (key === 'page') out.append('page[number]', value);
    else out.append(key, value);
  }
  if (sort.length > 0) out.set('sort', sort.join(','));
  return out.toString();
}

export function jsonApiQuery(query: QueryParams, sortable: (parameter: string) => boolean = () => true, includable: (path: string) => boolean = () => true): QueryParams {
  let out: Record<string, string | string[] | undefined> | null = null;
  const set = (key: string, value: string | string[] | undefined) => {
    out ??= { ...query };
    if (out[key] === undefined) out[key] = value;
  };
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (key === 'sort') {
      for (const field of (Array.isArray(value) ? value.join(',') : value).split(',')) {
        const name = field.trim().replace(/^-/, '');
        if (name === '') continue;
        // JSON:API 1.1, Sorting: a sort field the server does not support is a 400.
        if (!sortable(`order[${name}]`)) throw invalidFilter('sort', field.trim(), `expected fields to sort by among those the collection orders by`);
        set(`order[${name}]`, field.trim().startsWith('-') ? 'desc' : 'asc');
      }
    } else if (key === 'include') {
      // JSON:API 1.1, Inclusion of Related Resources: a relationship path (`book.author`) the
      // server cannot include is a 400.
      const names = [...new Set((Array.isArray(value) ? value.join(',') : value).split(',').map((n) => n.trim()).filter((n) => n !== ''))];
      for (const name of names) if (!includable(name)) throw invalidFilter('include', name, `expected relationship paths of the resource, up to ${MAX_EMBED_DEPTH} relationships deep`);
      // Each relationship once, and none for an empty include: the links echo what is set here.
      if (names.length > 0) set('embed', names.join(','));
    } else if (key === 'page[number]') set('page', value);
    else if (key === 'page[size]') set('itemsPerPage', value);
    else {
      const m = FILTER.exec(key);
      if (m) set(m[1]!, value);
    }
  }
  return out ?? query;
}

/**
 * The names a 400 about the page gives (pagination.ts): JSON:API's where the client sent them and
 * not the resource's own (which win, jsonApiQuery): `page[size]=0` is refused as `page[size]`,
 * a parameter the client knows, not as `itemsPerPage`.
 */
export function jsonApiPageNames(query: QueryParams): PageParameterNames {
  return {
    page: query.page === undefined && query['page[number]'] !== undefined ? 'page[number]' : 'page',
    itemsPerPage: query.itemsPerPage === undefined && query['page[size]'] !== undefined ? 'page[size]' : 'itemsPerPage',
  };
}
