import type { ResourceDefinition } from '../../resources/define-resource.ts';
import { Ref } from '../../resources/ref.ts';
import type { Item } from '../../resources/state-provider.ts';
import { invalidBody, requireObject, type Format } from '../format.ts';

type Link = { href: string };

function halItem(resource: ResourceDefinition, item: Item): Record<string, unknown> {
  const links: Record<string, Link> = { self: { href: `${resource.path}/${item.id}` } };
  const embedded: Record<string, unknown> = {};
  const out: Record<string, unknown> = { _links: links };
  for (const key in item) {
    const v = item[key];
    if (v instanceof Ref) {
      links[key] = { href: v.iri };
      if (v.data !== null) embedded[key] = halItem(v.resource, v.data);
    } else if (!resource.property.get(key)?.relation) {
      out[key] = v;
    }
  }
  if (Object.keys(embedded).length > 0) out._embedded = embedded;
  return out;
}

/**
 * HAL (draft-kelly-json-hal): `_links.self` and one link per relation; embedded relations and
 * collection members under `_embedded` (`item`, as API Platform names them).
 */
export const halFormat: Format = {
  name: 'jsonhal',
  mediaTypes: ['application/hal+json'],
  extension: 'jsonhal',
  encode(value, ctx) {
    if (value.kind === 'item') return JSON.stringify(halItem(ctx.resource, value.item));
    const links: Record<string, Link> = { self: { href: value.links?.self ?? ctx.resource.path } };
    if (value.links) {
      links.first = { href: value.links.first };
      if (value.links.last !== null) links.last = { href: value.links.last };
      if (value.links.previous !== null) links.prev = { href: value.links.previous };
      if (value.links.next !== null) links.next = { href: value.links.next };
    }
    links.item = value.items.map((i) => ({ href: `${ctx.resource.path}/${i.id}` })) as unknown as Link;
    const doc: Record<string, unknown> = { _links: links };
    if (value.totalItems !== null) doc.totalItems = value.totalItems;
    if (value.links) doc.itemsPerPage = value.itemsPerPage;
    doc._embedded = { item: value.items.map((i) => halItem(ctx.resource, i)) };
    return JSON.stringify(doc);
  },
  decode(body, ctx) {
    const doc = requireObject(body, 'a HAL JSON object');
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(doc)) if (key !== '_links' && key !== '_embedded') out[key] = value;
    const links = doc._links;
    if (links === undefined) return out;
    // HAL (draft-kelly-json-hal §4.1.1): `_links` is an object whose members are link relations.
    // Anything else was ignored, so a client's relation change was dropped and answered 201.
    if (typeof links !== 'object' || links === null || Array.isArray(links)) throw invalidBody('a HAL object whose "_links" is an object of links');
    for (const p of ctx.resource.relations) {
      const link = (links as Record<string, unknown>)[p.name];
      if (link === undefined) continue;
      // A relation to one resource is one Link Object with an `href` (§5.1), not an array of them.
      if (typeof link !== 'object' || link === null || Array.isArray(link) || typeof (link as Partial<Link>).href !== 'string') {
        throw invalidBody(`a HAL object whose "_links.${p.name}" is a link with a string "href"`);
      }
      out[p.name] = (link as Link).href;
    }
    return out;
  },
};
