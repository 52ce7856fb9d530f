import type { ResourceDefinition } from './define-resource.ts';
import { HttpError } from '../kernel/http-error.ts';
import { invalidFilter, parseBoolean } from './filters/invalid-filter.ts';
import type { PaginationState, QueryParams } from './state-provider.ts';

/** 1 to MAX_NUMBER, in at most nine digits: larger ones would only make a larger OFFSET. */
const POSITIVE = /^[1-9][0-9]{0,8}$/;
const MAX_NUMBER = 999_999_999;

/**
 * The one value of a parameter that takes one. Given twice with different values it is a 400:
 * the last one used to win, so `page=abc&page=2` passed the check `page=2&page=abc` failed, and
 * a cache or proxy that reads the first value disagreed with the server about the page.
 */
function single(params: QueryParams, key: string, name = key): string | undefined {
  const v = params[key];
  if (!Array.isArray(v)) return v;
  if (v.some((value) => value !== v[0])) throw HttpError.of('repeated_query_parameter', { parameter: name, count: new Set(v).size });
  return v[0];
}

/** The names a 400 gives the page parameters: the ones the client sent (JSON:API's `page[number]`, `page[size]`). */
export interface PageParameterNames {
  readonly page: string;
  readonly itemsPerPage: string;
}

const OWN_NAMES: PageParameterNames = { page: 'page', itemsPerPage: 'itemsPerPage' };

/** `page`, `itemsPerPage` (capped by the maximum) and `partial` from the query string; 400 when unusable. */
export function resolvePagination(resource: ResourceDefinition, params: QueryParams, names: PageParameterNames = OWN_NAMES): PaginationState {
  const options = resource.pagination;
  if (!options.enabled) return { enabled: false, page: 1, itemsPerPage: 0, partial: false };
  const rawPage = single(params, 'page', names.page);
  if (rawPage !== undefined && !POSITIVE.test(rawPage)) throw invalidFilter(names.page, rawPage, `expected a page number from 1 to ${MAX_NUMBER}`);
  let itemsPerPage = options.itemsPerPage;
  const rawItems = options.clientItemsPerPage ? single(params, 'itemsPerPage', names.itemsPerPage) : undefined;
  if (rawItems !== undefined) {
    // The bound told is the page's, not MAX_NUMBER: more is taken and capped (as API Platform
    // does), so a client asking 0 or -1 learns what a page holds at most.
    if (!POSITIVE.test(rawItems)) throw invalidFilter(names.itemsPerPage, rawItems, `expected a number from 1 (a page holds at most ${options.maximumItemsPerPage} items)`);
    itemsPerPage = Math.min(Number(rawItems), options.maximumItemsPerPage);
  }
  const rawPartial = options.clientPartial ? single(params, 'partial') : undefined;
  const partial = rawPartial !== undefined ? parseBoolean('partial', rawPartial) : options.partial;
  return { enabled: true, page: rawPage === undefined ? 1 : Number(rawPage), itemsPerPage, partial };
}

export interface PageLinks {
  readonly self: string;
  readonly first: string;
  readonly last: string | null;
  readonly previous: string | null;
  readonly next: string | null;
}

/** Pairs URLSearchParams writes back as they came, but for `[` and `]` (a filter's `order[title]`). */
const PLAIN_QUERY = /^[A-Za-z0-9*\-._[\]]+=[A-Za-z0-9*\-._[\]]*(?:&[A-Za-z0-9*\-._[\]]+=[A-Za-z0-9*\-._[\]]*)*$/;

/**
 * `(page) => path?query` with `page` set, as `URLSearchParams.set` + `toString` would write it:
 * the first `page` pair takes the number, later ones go, and it is appended when absent. Plain
 * queries (the usual ones) are spliced without URLSearchParams' parse and re-encode.
 */
function pageUrl(path: string, search: string, pageParam: string): (page: number) => string {
  const name = pageParam.replaceAll('[', '%5B').replaceAll(']', '%5D');
  if (search === '') return (page) => `${path}?${name}=${page}`;
  if (!PLAIN_QUERY.test(search)) {
    const params = new URLSearchParams(search);
    return (page) => {
      params.set(pageParam, String(page));
      return `${path}?${params.toString()}`;
    };
  }
  const encoded = search.includes('[') || search.includes(']') ? search.replaceAll('[', '%5B').replaceAll(']', '%5D') : search;
  let before = '';
  let after = '';
  let found = false;
  for (const pair of encoded.split('&')) {
    if (pair.startsWith(`${name}=`)) {
      found = true;
      continue;
    }
    if (found) after += `&${pair}`;
    else before += `${pair}&`;
  }
  const head = `${path}?${before}${name}=`;
  return (page) => `${head}${page}${after}`;
}

/**
 * The page's neighbours as paths with the request's other query parameters kept. Without a total
 * (partial pagination) `last` is unknown and `next` exists when the page is full.
 */
export function pageLinks(path: string, search: string, state: PaginationState, totalItems: number | null, count: number, pageParam = 'page'): PageLinks {
  const at = pageUrl(path, search, pageParam);
  const lastPage = totalItems === null ? null : Math.max(1, Math.ceil(totalItems / state.itemsPerPage));
  const hasNext = lastPage === null ? count >= state.itemsPerPage : state.page < lastPage;
  return {
    self: at(state.page),
    first: at(1),
    last: lastPage === null ? null : at(lastPage),
    previous: state.page > 1 ? at(state.page - 1) : null,
    next: hasNext ? at(state.page + 1) : null,
  };
}
