import type { ResourceDefinition } from '../../resources/define-resource.ts';
import { Ref } from '../../resources/ref.ts';
import type { Item } from '../../resources/state-provider.ts';
import { requireObject, type EncodeContext, type Format, type Representation } from '../format.ts';
import { hydraSearch } from './hydra-search.ts';
import { hydraView } from './hydra-view.ts';

const contexts = new WeakMap<ResourceDefinition, string>();

function contextOf(resource: ResourceDefinition): string {
  let context = contexts.get(resource);
  if (context === undefined) {
    context = `/contexts/${resource.name}`;
    contexts.set(resource, context);
  }
  return context;
}

/**
 * The item as a plain node object: `@id` and `@type` first, then the item's own members, Refs as
 * IRIs. An embedded relation is a node with its own context (its terms differ from ours).
 * Plain objects keep JSON.stringify on V8's fast path, which a `toJSON` (Ref's) would leave.
 */
function node(resource: ResourceDefinition, item: Item, context: string | null): Record<string, unknown> {
  const out: Record<string, unknown> = context === null ? {} : { '@context': context };
  out['@id'] = `${resource.path}/${item.id}`;
  out['@type'] = resource.name;
  for (const key in item) {
    const v = item[key];
    out[key] = v instanceof Ref ? (v.data === null ? v.iri : node(v.resource, v.data, contextOf(v.resource))) : v;
  }
  return out;
}

function encodeCollection(value: Extract<Representation, { kind: 'collection' }>, ctx: EncodeContext): string {
  const { resource } = ctx;
  const items = value.items;
  const member = new Array<Record<string, unknown>>(items.length);
  for (let i = 0; i < items.length; i++) member[i] = node(resource, items[i]!, null);
  const doc: Record<string, unknown> = { '@context': contextOf(resource), '@id': resource.path, '@type': 'Collection' };
  if (value.totalItems !== null) doc.totalItems = value.totalItems;
  doc.member = member;
  if (value.links) {
    const view = hydraView(value.links);
    if (view !== null) doc.view = view;
  }
  // One JSON.stringify for the whole document; the search template is serialised once per resource.
  const text = JSON.stringify(doc);
  const search = hydraSearch(resource);
  return search === null ? text : `${text.slice(0, -1)},"search":${search}}`;
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
    return JSON.stringify(node(ctx.resource, value.item, contextOf(ctx.resource)));
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
