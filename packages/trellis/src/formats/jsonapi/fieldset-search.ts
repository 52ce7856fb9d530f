import type { ResourceDefinition } from '../../resources/define-resource.ts';

/**
 * The sparse fieldsets of a JSON:API request (`fields[books]=title,author`) as query pairs for
 * the links a page carries (first, prev, next, last), so a client following them keeps getting
 * the fields it asked for. Only types the API has and fields they declare are echoed: like the
 * other parameters of a link (resources/known-query.ts), nothing else a client sent (a token
 * passed off as a field name) is written into documents that caches and logs keep.
 */
export function fieldsetSearch(fields: ReadonlyMap<string, ReadonlySet<string>>, typeOf: (name: string) => ResourceDefinition | undefined): string {
  const params = new URLSearchParams();
  for (const [type, names] of fields) {
    const resource = typeOf(type);
    if (resource === undefined) continue;
    params.append(`fields[${type}]`, [...names].filter((n) => resource.property.has(n)).join(','));
  }
  return params.toString();
}
