import type { ResourceDefinition } from '../../resources/define-resource.ts';
import { Ref } from '../../resources/ref.ts';
import type { Item } from '../../resources/state-provider.ts';
import { requireObject, type EncodeContext, type Format, type Representation } from '../format.ts';
import { hydraSearch } from './hydra-search.ts';

const heads = new WeakMap<ResourceDefinition, string>();

/** `{"@context":"/contexts/Book",`, computed once per resource. */
function headOf(resource: ResourceDefinition): string {
  let head = heads.get(resource);
  if (head === undefined) {
    head = `{"@context":${JSON.stringify(`/contexts/${resource.name}`)},`;
    heads.set(resource, head);
  }
  return head;
}

function node(resource: ResourceDefinition, item: Item, withContext: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = withContext ? { '@context': `/contexts/${resource.name}` } : {};
  out['@id'] = `${resource.path}/${item.id}`;
  out['@type'] = resource.name;
  for (const key in item) {
    const v = item[key];
    // An embedded relation is a node with its own context (its terms differ from ours).
    out[key] = v instanceof Ref && v.data !== null ? node(v.resource, v.data, true) : v;
  }
  return out;
}

/** The fast path: `{"@id":…,"@type":…,` spliced before the item's own JSON (Refs render as IRIs). */
function itemText(resource: ResourceDefinition, item: Item, head: string): string {
  const own = JSON.stringify(item);
  return `${head}"@id":${JSON.stringify(`${resource.path}/${item.id}`)},"@type":${JSON.stringify(resource.name)}${own.length > 2 ? ',' : ''}${own.slice(1)}`;
}

function encodeCollection(value: Extract<Representation, { kind: 'collection' }>, ctx: EncodeContext): string {
  const { resource } = ctx;
  const members = ctx.embedded
    ? value.items.map((i) => JSON.stringify(node(resource, i, false)))
    : value.items.map((i) => itemText(resource, i, '{'));
  const doc: string[] = [`{"@context":${JSON.stringify(`/contexts/${resource.name}`)},"@id":${JSON.stringify(resource.path)},"@type":"Collection"`];
  if (value.totalItems !== null) doc.push(`"totalItems":${value.totalItems}`);
  doc.push(`"member":[${members.join(',')}]`);
  if (value.links) {
    const l = value.links;
    const view: Record<string, unknown> = { '@id': l.self, '@type': 'PartialCollectionView', first: l.first };
    if (l.last !== null) view.last = l.last;
    if (l.previous !== null) view.previous = l.previous;
    if (l.next !== null) view.next = l.next;
    doc.push(`"view":${JSON.stringify(view)}`);
  }
  const search = hydraSearch(resource);
  if (search !== null) doc.push(`"search":${search}`);
  return `${doc.join(',')}}`;
}

/**
 * JSON-LD with the Hydra vocabulary (the default format): items carry `@context`, `@id` and
 * `@type`; collections are `Collection`s with `member`, `totalItems`, a `PartialCollectionView`
 * and the `search` template of their filters.
 */
export const jsonldFormat: Format = {
  name: 'jsonld',
  mediaTypes: ['application/ld+json'],
  extension: 'jsonld',
  encode(value, ctx) {
    if (value.kind === 'collection') return encodeCollection(value, ctx);
    if (ctx.embedded) return JSON.stringify(node(ctx.resource, value.item, true));
    return itemText(ctx.resource, value.item, headOf(ctx.resource));
  },
  decode(body) {
    const doc = requireObject(body, 'a JSON-LD object');
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(doc)) {
      if (key.startsWith('@')) continue;
      // A relation may be given as a node reference, {"@id": "/authors/1"}.
      out[key] = typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as Record<string, unknown>)['@id'] === 'string' ? (value as Record<string, unknown>)['@id'] : value;
    }
    return out;
  },
};
