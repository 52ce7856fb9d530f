import type { ResourceDefinition } from './define-resource.ts';

const OPERATION_KEYS = ['page', 'itemsPerPage', 'partial', 'embed'];
const known = new WeakMap<ResourceDefinition, ReadonlySet<string>>();

function keysOf(resource: ResourceDefinition): ReadonlySet<string> {
  let keys = known.get(resource);
  if (keys === undefined) {
    const names = [...OPERATION_KEYS, ...resource.filters.flatMap((f) => f.parameters(resource)).map((p) => p.name)];
    keys = new Set([...names, ...names.map((n) => `${n}[]`)]);
    known.set(resource, keys);
  }
  return keys;
}

function keyOf(pair: string): string {
  const eq = pair.indexOf('=');
  const raw = (eq < 0 ? pair : pair.slice(0, eq)).replaceAll('+', ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return '';
  }
}

/** Whether `name` is a query parameter the collection reads (a filter's, or page, itemsPerPage, partial, embed). */
export function knownParameter(resource: ResourceDefinition, name: string): boolean {
  return keysOf(resource).has(name);
}

/**
 * The request's query string with only the parameters the collection operation knows (its
 * filters, pagination and `embed`), for the links it generates (Hydra `view`, HAL and JSON:API
 * links, `Link` pagination headers). Anything else a client sent, `access_token=…` included, is
 * not echoed into documents that caches, logs and other clients keep.
 */
export function knownQuery(resource: ResourceDefinition, search: string): string {
  if (search === '') return search;
  const keys = keysOf(resource);
  const pairs = search.split('&');
  const kept = pairs.filter((pair) => pair !== '' && keys.has(keyOf(pair)));
  return kept.length === pairs.length ? search : kept.join('&');
}
