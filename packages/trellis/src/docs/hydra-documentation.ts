import { entrypointKey, HYDRA } from '../formats/jsonld/hydra-context.ts';
import type { PropertyDefinition, PropertyType, ResourceDefinition } from '../resources/define-resource.ts';
import type { Operation } from '../resources/operation.ts';
import { operationId } from './operation-object.ts';

const RANGES: Readonly<Record<PropertyType, string>> = {
  string: 'xmls:string',
  integer: 'xmls:integer',
  number: 'xmls:decimal',
  boolean: 'xmls:boolean',
  date: 'xmls:date',
  'date-time': 'xmls:dateTime',
  iri: 'xmls:anyURI',
  array: 'rdf:List',
  object: 'rdf:JSON',
};

/** schema.org action types, as API Platform tags Hydra operations. */
const ACTIONS: Readonly<Record<string, string>> = { GET: 'schema:FindAction', POST: 'schema:CreateAction', PUT: 'schema:ReplaceAction', PATCH: 'schema:UpdateAction', DELETE: 'schema:DeleteAction' };

function supportedOperation(op: Operation, vocab: string): Record<string, unknown> {
  const cls = `${vocab}${op.resource.name}`;
  const collection = op.kind === 'collection' && op.method === 'GET';
  return {
    '@type': ['Operation', ACTIONS[op.method] ?? 'schema:Action'],
    method: op.method,
    // The OpenAPI operationId: the same operation under the same name in both documents.
    title: operationId(op),
    'rdfs:label': op.description,
    ...(op.deserialize ? { expects: cls } : {}),
    returns: !op.serialize || op.method === 'DELETE' ? 'owl:Nothing' : collection ? 'hydra:Collection' : cls,
  };
}

function supportedProperty(resource: ResourceDefinition, p: PropertyDefinition, vocab: string): Record<string, unknown> {
  const description = (p.schema as { description?: unknown }).description;
  return {
    '@type': 'SupportedProperty',
    property: {
      // Exactly the IRI /contexts/Book maps `title` to (a relative `#Book/title` would resolve
      // against the document URL, which drops a default port the vocabulary keeps).
      '@id': `${vocab}${resource.name}/${p.name}`,
      '@type': p.relation ? 'Link' : 'rdf:Property',
      'rdfs:label': p.name,
      domain: `${vocab}${resource.name}`,
      range: p.relation ? `${vocab}${p.relation}` : RANGES[p.type],
    },
    title: p.name,
    required: p.required,
    readable: !p.writeOnly,
    writeable: !p.readOnly,
    ...(typeof description === 'string' ? { description } : {}),
  };
}

const listed = (r: ResourceDefinition) => r.operations.some((o) => o.name === 'getCollection');

/**
 * The Hydra API documentation (`/docs.jsonld`, the target of every response's
 * `rel="http://www.w3.org/ns/hydra/core#apiDocumentation"` link): one class per resource with its
 * properties and item operations, and the Entrypoint class whose collection links carry the
 * collection operations. Class and property IRIs are the ones the JSON-LD contexts resolve to, and
 * operations are titled with their OpenAPI operationId.
 */
export function hydraDocumentation(resources: readonly ResourceDefinition[], options: { name: string; vocab: string }): Record<string, unknown> {
  const { vocab } = options;
  const classes: Record<string, unknown>[] = resources.map((r) => ({
    '@id': `${vocab}${r.name}`,
    '@type': 'Class',
    'rdfs:label': r.name,
    title: r.name,
    ...(r.description ? { description: r.description } : {}),
    supportedProperty: r.properties.map((p) => supportedProperty(r, p, vocab)),
    // Collection operations of a listed resource hang on its entrypoint link instead.
    supportedOperation: r.operations.filter((o) => o.kind === 'item' || !listed(r)).map((o) => supportedOperation(o, vocab)),
  }));
  const entrypoint = {
    '@id': `${vocab}Entrypoint`,
    '@type': 'Class',
    'rdfs:label': 'Entrypoint',
    title: 'Entrypoint',
    supportedProperty: resources.filter(listed).map((r) => ({
      '@type': 'SupportedProperty',
      property: {
        '@id': `${vocab}Entrypoint/${entrypointKey(r)}`,
        '@type': 'Link',
        'rdfs:label': `The collection of ${r.name} resources`,
        domain: `${vocab}Entrypoint`,
        // A collection whose members are all of the class (OWL restriction), as API Platform
        // writes it: a client learns the class from the range, even for a collection it cannot
        // POST to (api-doc-parser otherwise found it only from an operation returning the class,
        // and failed on a read-only collection).
        range: ['hydra:Collection', { 'owl:equivalentClass': { 'owl:onProperty': { '@id': 'hydra:member' }, 'owl:allValuesFrom': { '@id': `${vocab}${r.name}` } } }],
        supportedOperation: r.operations.filter((o) => o.kind === 'collection').map((o) => supportedOperation(o, vocab)),
      },
      title: `The collection of ${r.name} resources`,
      readable: true,
      writeable: false,
    })),
    supportedOperation: [{ '@type': 'Operation', method: 'GET', title: 'getEntrypoint', 'rdfs:label': 'The API entrypoint.', returns: `${vocab}Entrypoint` }],
  };
  return {
    '@context': {
      '@vocab': options.vocab,
      hydra: HYDRA,
      rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
      rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
      xmls: 'http://www.w3.org/2001/XMLSchema#',
      owl: 'http://www.w3.org/2002/07/owl#',
      schema: 'https://schema.org/',
      domain: { '@id': 'rdfs:domain', '@type': '@id' },
      range: { '@id': 'rdfs:range', '@type': '@id' },
      expects: { '@id': 'hydra:expects', '@type': '@id' },
      returns: { '@id': 'hydra:returns', '@type': '@id' },
      // Hydra's own terms unprefixed, as collections and errors use them (and API Platform 4
      // writes its documentation); values stay compact IRIs (hydra:Collection, xmls:string).
      ApiDocumentation: 'hydra:ApiDocumentation',
      Class: 'hydra:Class',
      Link: 'hydra:Link',
      Operation: 'hydra:Operation',
      SupportedProperty: 'hydra:SupportedProperty',
      title: 'hydra:title',
      description: 'hydra:description',
      entrypoint: { '@id': 'hydra:entrypoint', '@type': '@id' },
      supportedClass: 'hydra:supportedClass',
      supportedProperty: 'hydra:supportedProperty',
      supportedOperation: 'hydra:supportedOperation',
      property: 'hydra:property',
      method: 'hydra:method',
      required: 'hydra:required',
      readable: 'hydra:readable',
      writeable: 'hydra:writeable',
    },
    '@id': '/docs.jsonld',
    '@type': 'ApiDocumentation',
    title: options.name,
    description: 'Also as OpenAPI 3.1 at /docs.json, and interactive at /docs.',
    entrypoint: '/',
    supportedClass: [...classes, entrypoint],
  };
}
