import type { PropertyDefinition, ResourceDefinition } from '../resources/define-resource.ts';
import type { ResourceRegistry } from '../resources/resource-registry.ts';
import { exampleValue } from './example-value.ts';
import { orNull, plainSchema, ref, type JsonSchema } from './json-schema.ts';

/**
 * The component schemas of one resource, by format, named after API Platform's convention
 * (`Book`, `Book.jsonld`, `Book.jsonhal`, `Book.jsonapi`, plus `.collection` and the write
 * shapes `.input`, `.jsonld-input`, `.jsonapi-input`, `.patch`).
 *
 * Exactness rules: output shapes list every readable property as `required`, because the
 * provider always returns every column (a missing value is `null`, and only nullable properties
 * may be null); write-only properties never appear in outputs, read-only ones never in inputs;
 * input `required` is the declaration's; PATCH (RFC 7396) requires nothing.
 */
export function resourceSchemas(resource: ResourceDefinition, registry: ResourceRegistry): Record<string, JsonSchema> {
  const name = resource.name;
  const output = resource.properties.filter((p) => !p.writeOnly);
  const input = resource.properties.filter((p) => !p.readOnly);
  const requiredInput = input.filter((p) => p.required).map((p) => p.name);
  const closed = resource.unknownFields === 'reject';
  const description = resource.description || undefined;
  const iriOf = (p: PropertyDefinition) => registry.get(p.relation!)!;

  const valueSchema = (p: PropertyDefinition, relation: (target: ResourceDefinition) => JsonSchema | null, readOnly: boolean): JsonSchema => {
    const plain = plainSchema(p.schema);
    let schema: JsonSchema;
    if (p.relation !== null) {
      const iri: JsonSchema = { type: 'string', format: 'iri-reference' };
      const embedded = relation(iriOf(p));
      schema = { ...(plain.description ? { description: plain.description } : {}), ...(embedded ? { anyOf: [iri, embedded] } : iri) };
      if (p.nullable) schema = embedded ? { ...schema, anyOf: [...(schema.anyOf as JsonSchema[]), { type: 'null' }] } : orNull(schema);
    } else schema = plain;
    const example = exampleValue(resource, p, registry);
    if (example !== undefined) schema = { ...schema, examples: [example] };
    return readOnly && p.readOnly ? { ...schema, readOnly: true } : schema;
  };
  const objectOf = (props: readonly PropertyDefinition[], relation: (t: ResourceDefinition) => JsonSchema | null, required: readonly string[], readOnly: boolean, extra: Record<string, JsonSchema> = {}, extraRequired: readonly string[] = []): JsonSchema => ({
    type: 'object',
    ...(description ? { description } : {}),
    properties: { ...extra, ...Object.fromEntries(props.map((p) => [p.name, valueSchema(p, relation, readOnly)])) },
    required: [...extraRequired, ...required],
  });
  const allOutput = output.map((p) => p.name);
  const iriString: JsonSchema = { type: 'string', format: 'iri-reference' };

  const schemas: Record<string, JsonSchema> = {};
  // Plain JSON: relations are IRIs, or the target's JSON with ?embed=.
  schemas[name] = { ...objectOf(output, (t) => ref(t.name), allOutput, true), additionalProperties: false };
  // JSON-LD: `@context` is present on items, absent on collection members.
  schemas[`${name}.jsonld`] = {
    ...objectOf(output, (t) => ref(`${t.name}.jsonld`), allOutput, true, {
      '@context': { type: 'string', format: 'iri-reference', examples: [`/contexts/${name}`] },
      '@id': { ...iriString, examples: [`${resource.path}/1`] },
      '@type': { const: name },
    }, ['@id', '@type']),
    additionalProperties: false,
  };
  // HAL: relations are links (and `_embedded` documents), never properties.
  const halOwn = output.filter((p) => p.relation === null);
  const halLinks: Record<string, JsonSchema> = { self: ref('HalLink') };
  const halEmbedded: Record<string, JsonSchema> = {};
  for (const p of output.filter((x) => x.relation !== null)) {
    halLinks[p.name] = ref('HalLink');
    halEmbedded[p.name] = ref(`${iriOf(p).name}.jsonhal`);
  }
  schemas[`${name}.jsonhal`] = {
    ...objectOf(halOwn, () => null, halOwn.map((p) => p.name), true, {
      _links: { type: 'object', properties: halLinks, required: ['self'], description: 'Relations without a value have no link.' },
      ...(Object.keys(halEmbedded).length > 0 ? { _embedded: { type: 'object', properties: halEmbedded, description: 'Relations named by ?embed=.' } } : {}),
    }, ['_links']),
    additionalProperties: false,
  };
  // JSON:API: string `id`, attributes, relationships (data null when the relation is empty).
  const attributes = output.filter((p) => p.relation === null && p.name !== 'id');
  const relationships = output.filter((p) => p.relation !== null);
  schemas[`${name}.jsonapi.resource`] = {
    type: 'object',
    properties: {
      id: { type: 'string', examples: ['1'] },
      type: { const: name },
      attributes: objectOf(attributes, () => null, attributes.map((p) => p.name), true),
      ...(relationships.length > 0
        ? { relationships: { type: 'object', properties: Object.fromEntries(relationships.map((p) => [p.name, { type: 'object', properties: { data: p.nullable ? { anyOf: [ref('JsonApiLinkage'), { type: 'null' }] } : ref('JsonApiLinkage') }, required: ['data'] }])), required: relationships.map((p) => p.name) } }
        : {}),
      links: { type: 'object', properties: { self: iriString }, required: ['self'] },
    },
    required: ['id', 'type', 'attributes', 'links', ...(relationships.length > 0 ? ['relationships'] : [])],
  };
  const included = { type: 'array', items: { type: 'object' }, description: 'Relations named by ?embed= (compound document).' };
  schemas[`${name}.jsonapi`] = {
    type: 'object',
    properties: { links: { type: 'object', properties: { self: iriString }, required: ['self'] }, data: ref(`${name}.jsonapi.resource`), included },
    required: ['links', 'data'],
  };

  Object.assign(schemas, collectionSchemas(resource));
  Object.assign(schemas, inputSchemas(resource, input, requiredInput, closed, valueSchema));
  return schemas;
}

function collectionSchemas(resource: ResourceDefinition): Record<string, JsonSchema> {
  const name = resource.name;
  const { enabled, partial, clientPartial } = resource.pagination;
  // Under partial pagination (RFC-less, API Platform's) there is no COUNT, so no total and no last page.
  const total = enabled && (partial || clientPartial) ? [] : ['totalItems'];
  const searchable = resource.filters.some((f) => f.parameters(resource).length > 0) ? ['search'] : [];
  const count = { type: 'integer', minimum: 0 };
  return {
    [`${name}.jsonld.collection`]: {
      type: 'object',
      properties: {
        '@context': { type: 'string', format: 'iri-reference', examples: [`/contexts/${name}`] },
        '@id': { type: 'string', format: 'iri-reference', examples: [resource.path] },
        '@type': { const: 'Collection' },
        totalItems: count,
        member: { type: 'array', items: ref(`${name}.jsonld`) },
        view: ref('HydraPartialCollectionView'),
        search: ref('HydraIriTemplate'),
      },
      // `view` is absent when one page holds the whole collection (formats/jsonld/hydra-view.ts).
      required: ['@context', '@id', '@type', ...total, 'member', ...searchable],
      additionalProperties: false,
    },
    [`${name}.jsonhal.collection`]: {
      type: 'object',
      properties: {
        _links: {
          type: 'object',
          properties: { self: ref('HalLink'), first: ref('HalLink'), last: ref('HalLink'), prev: ref('HalLink'), next: ref('HalLink'), item: { type: 'array', items: ref('HalLink') } },
          required: ['self', 'item', ...(enabled ? ['first'] : [])],
        },
        totalItems: count,
        itemsPerPage: count,
        _embedded: { type: 'object', properties: { item: { type: 'array', items: ref(`${name}.jsonhal`) } }, required: ['item'] },
      },
      required: ['_links', ...total, ...(enabled ? ['itemsPerPage'] : []), '_embedded'],
    },
    [`${name}.jsonapi.collection`]: {
      type: 'object',
      properties: {
        links: ref('JsonApiPageLinks'),
        meta: { type: 'object', properties: { itemsPerPage: count, totalItems: count }, required: ['itemsPerPage', ...total] },
        data: { type: 'array', items: ref(`${name}.jsonapi.resource`) },
        included: { type: 'array', items: { type: 'object' } },
      },
      required: ['links', 'meta', 'data'],
    },
  };
}

type ValueSchema = (p: PropertyDefinition, relation: (t: ResourceDefinition) => JsonSchema | null, readOnly: boolean) => JsonSchema;

function inputSchemas(resource: ResourceDefinition, input: readonly PropertyDefinition[], required: string[], closed: boolean, valueSchema: ValueSchema): Record<string, JsonSchema> {
  const name = resource.name;
  const props = (relation: (t: ResourceDefinition) => JsonSchema | null, list = input) => Object.fromEntries(list.map((p) => [p.name, valueSchema(p, relation, false)]));
  const none = () => null;
  const nodeRef: JsonSchema = { type: 'object', properties: { '@id': { type: 'string', format: 'iri-reference' } }, required: ['@id'] };
  const attributes = input.filter((p) => p.relation === null && p.name !== 'id');
  const relationships = input.filter((p) => p.relation !== null);
  const linkage = (p: PropertyDefinition): JsonSchema => ({ type: 'object', properties: { data: p.nullable ? { anyOf: [ref('JsonApiLinkage'), { type: 'null' }] } : ref('JsonApiLinkage') }, required: ['data'] });
  const jsonapi = (req: readonly string[], update = false): JsonSchema => ({
    type: 'object',
    properties: {
      data: {
        type: 'object',
        properties: {
          type: { const: name, description: 'Another type is a 409.' },
          // JSON:API 1.1: an update names its item (another id is a 409); a creation may not (403).
          ...(update ? { id: { type: 'string', description: 'The id in the URL; another is a 409.' } } : {}),
          attributes: { type: 'object', properties: props(none, attributes), required: req.filter((r) => attributes.some((p) => p.name === r)), additionalProperties: !closed },
          ...(relationships.length > 0
            ? { relationships: { type: 'object', properties: Object.fromEntries(relationships.map((p) => [p.name, linkage(p)])), required: req.filter((r) => relationships.some((p) => p.name === r)) } }
            : {}),
        },
      },
    },
    required: ['data'],
  });
  return {
    [`${name}.input`]: { type: 'object', properties: props(none), required, additionalProperties: !closed },
    // JSON-LD keywords are read and ignored; a relation may be a node reference, {"@id": "/authors/1"}.
    [`${name}.jsonld-input`]: {
      type: 'object',
      properties: { '@context': {}, '@id': { type: 'string' }, '@type': { type: 'string' }, ...props(() => nodeRef) },
      required,
      ...(closed ? { additionalProperties: false } : {}),
    },
    [`${name}.jsonapi-input`]: jsonapi(required),
    [`${name}.jsonapi-patch`]: jsonapi([], true),
    // RFC 7396: every member is optional; null removes a member, so it is allowed where the property is nullable.
    [`${name}.patch`]: { type: 'object', properties: props(none), additionalProperties: !closed },
  };
}
