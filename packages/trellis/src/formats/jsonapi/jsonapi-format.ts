import type { ResourceDefinition } from '../../resources/define-resource.ts';
import { Ref } from '../../resources/ref.ts';
import type { Item } from '../../resources/state-provider.ts';
import { HttpError } from '../../kernel/http-error.ts';
import { invalidBody, requireObject, type DecodeContext, type Format } from '../format.ts';

interface ResourceObject {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: { type: string; id: string } | null }>;
  links: { self: string };
}

function resourceObject(resource: ResourceDefinition, item: Item, included: Map<string, ResourceObject> | null, fields?: ReadonlyMap<string, ReadonlySet<string>>): ResourceObject {
  const attributes: Record<string, unknown> = {};
  const relationships: Record<string, { data: { type: string; id: string } | null }> = {};
  // JSON:API 1.1, Sparse Fieldsets: a type named in fields[…] shows only the fields listed.
  // The type is the resource's name ("Book"); its collection's path segment ("books") names it too.
  const only = fields?.get(resource.name) ?? fields?.get(resource.path.slice(1));
  for (const key in item) {
    if (key === 'id' || (only !== undefined && !only.has(key))) continue;
    const v = item[key];
    if (v instanceof Ref) {
      relationships[key] = { data: { type: v.resource.name, id: String(v.id) } };
      if (v.data !== null && included !== null) {
        // A nested include (`book.author`) adds the related resources' own embedded relations too.
        const ref = `${v.resource.name}/${v.id}`;
        if (!included.has(ref)) {
          // Reserved first: a parent is listed before what it includes, and a cycle ends here.
          included.set(ref, null as unknown as ResourceObject);
          included.set(ref, resourceObject(v.resource, v.data, included, fields));
        }
      }
    } else if (resource.property.get(key)?.relation) {
      relationships[key] = { data: null };
    } else {
      attributes[key] = v;
    }
  }
  const out: ResourceObject = { id: String(item.id), type: resource.name, attributes, links: { self: `${resource.path}/${item.id}` } };
  if (Object.keys(relationships).length > 0) out.relationships = relationships;
  return out;
}

/**
 * A relationship of a resource object sent by a client, as the IRI (or null) the resource's
 * property holds. JSON:API 1.1, Updating a Resource's Relationships: a relationship in a request
 * MUST be a relationship object with a `data` member (resource linkage); anything else (only
 * `links`, a bare value, a name that is not a relationship) is a malformed document: 400, never
 * a value validated as if it were the property's.
 */
function linkageIri(key: string, rel: unknown, ctx: DecodeContext): string | null {
  const property = ctx.resource.property.get(key);
  const target = property?.relation ? ctx.registry.get(property.relation) : undefined;
  if (!target) {
    const names = ctx.resource.relations.map((p) => `"${p.name}"`);
    throw invalidBody(names.length === 0 ? `a JSON:API resource object without "relationships" (${ctx.resource.name} has none)` : `a JSON:API resource object whose relationships are among ${names.join(', ')} ("${key}" is not one)`);
  }
  if (rel === null || typeof rel !== 'object' || Array.isArray(rel) || !('data' in rel)) throw invalidBody(`a JSON:API document whose relationship "${key}" is an object with a "data" member`);
  const linkage = (rel as { data: unknown }).data;
  if (linkage === null) return null;
  if (typeof linkage !== 'object' || Array.isArray(linkage) || typeof (linkage as { id?: unknown }).id !== 'string') {
    throw invalidBody(`a JSON:API document whose relationship "${key}" has "data": null or {"type": "${target.name}", "id": "…"}`);
  }
  // A linkage names its type: a Book where the relationship holds a User is not User 2.
  const linked = (linkage as { type?: unknown }).type;
  if (linked !== undefined && linked !== target.name) throw invalidBody(`a JSON:API document whose relationship "${key}" links resources of type "${target.name}"`);
  return `${target.path}/${(linkage as { id: string }).id}`;
}

/**
 * JSON:API 1.1: resource objects with string `id`, `type`, `attributes` and `relationships`;
 * embedded relations go to the top-level `included` (compound documents); pagination in `links`
 * and the totals in `meta`.
 */
export const jsonapiFormat: Format = {
  name: 'jsonapi',
  mediaTypes: ['application/vnd.api+json'],
  extension: 'jsonapi',
  encode(value, ctx) {
    const included = ctx.embedded ? new Map<string, ResourceObject>() : null;
    let doc: Record<string, unknown>;
    if (value.kind === 'item') {
      const data = resourceObject(ctx.resource, value.item, included, ctx.fields);
      doc = { links: { self: data.links.self }, data };
    } else {
      const l = value.links;
      const links: Record<string, string> = { self: l?.self ?? ctx.resource.path };
      if (l) {
        links.first = l.first;
        if (l.last !== null) links.last = l.last;
        if (l.previous !== null) links.prev = l.previous;
        if (l.next !== null) links.next = l.next;
      }
      const meta: Record<string, unknown> = { itemsPerPage: value.itemsPerPage };
      if (value.totalItems !== null) meta.totalItems = value.totalItems;
      doc = { links, meta, data: value.items.map((i) => resourceObject(ctx.resource, i, included, ctx.fields)) };
    }
    if (included !== null) {
      // JSON:API 1.1, Compound Documents: one resource object per type and id in the whole
      // document, so a resource that is primary data is not repeated in included.
      for (const primary of value.kind === 'item' ? [value.item] : value.items) included.delete(`${ctx.resource.name}/${primary.id}`);
      if (included.size > 0) doc.included = [...included.values()];
    }
    return JSON.stringify(doc);
  },
  decode(body, ctx) {
    const doc = requireObject(body, 'a JSON:API document');
    const data = doc.data;
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw invalidBody('a JSON:API document with a "data" resource object');
    const { type, id, attributes, relationships } = data as Record<string, unknown>;
    if (type !== undefined && type !== ctx.resource.name) {
      if (typeof type !== 'string') throw invalidBody(`a JSON:API resource object of type "${ctx.resource.name}"`);
      // JSON:API 1.1, Creating/Updating Resources: a resource object of another type is a 409.
      throw HttpError.of('jsonapi_type_conflict', { type, expected: ctx.resource.name });
    }
    if (id !== undefined) {
      if (typeof id !== 'string') throw invalidBody('a JSON:API resource object whose "id" is a string');
      // An update names the item it updates (a different id is a 409); a creation may not choose its id (403).
      if (ctx.id === undefined) throw HttpError.of('jsonapi_client_id', { id });
      if (id !== ctx.id) throw HttpError.of('jsonapi_id_conflict', { id, expected: ctx.id });
    }
    const out: Record<string, unknown> = attributes === undefined ? {} : { ...requireObject(attributes, 'a JSON:API document whose "attributes" is an object') };
    if (relationships !== undefined) {
      for (const [key, rel] of Object.entries(requireObject(relationships, 'a JSON:API document whose "relationships" is an object'))) {
        out[key] = linkageIri(key, rel, ctx);
      }
    }
    return out;
  },
};
