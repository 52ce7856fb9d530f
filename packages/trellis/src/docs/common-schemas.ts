import { ref, type JsonSchema } from './json-schema.ts';

const iri: JsonSchema = { type: 'string', format: 'iri-reference' };

/** Schemas every resource shares: links, Hydra collection parts, and the error documents. */
export const COMMON_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  HalLink: { type: 'object', properties: { href: iri }, required: ['href'] },
  JsonApiLinkage: { type: 'object', properties: { type: { type: 'string' }, id: { type: 'string' } }, required: ['type', 'id'] },
  JsonApiPageLinks: {
    type: 'object',
    properties: { self: iri, first: iri, last: iri, prev: iri, next: iri },
    required: ['self'],
  },
  HydraPartialCollectionView: {
    type: 'object',
    description: 'This page of the collection and its neighbours, as API Platform writes them: absent for a single page asked for without parameters, only `@id` for a single page with some, `first` and `last` together when the last page is known.',
    properties: { '@id': iri, '@type': { const: 'PartialCollectionView' }, first: iri, last: iri, previous: iri, next: iri },
    required: ['@id', '@type'],
  },
  HydraIriTemplate: {
    type: 'object',
    description: 'The filters of the collection (Hydra §5.4), one mapping per query parameter.',
    properties: {
      '@type': { const: 'IriTemplate' },
      template: { type: 'string' },
      variableRepresentation: { const: 'BasicRepresentation' },
      mapping: {
        type: 'array',
        items: {
          type: 'object',
          properties: { '@type': { const: 'IriTemplateMapping' }, variable: { type: 'string' }, property: { type: 'string' }, required: { type: 'boolean' } },
          required: ['@type', 'variable', 'property', 'required'],
        },
      },
    },
    required: ['@type', 'template', 'variableRepresentation', 'mapping'],
  },
  // RFC 9457 problem details; `code` is our stable extension member.
  Error: {
    type: 'object',
    description: 'Problem details (RFC 9457). In the debug configuration `exceptions` lists the exception chain.',
    properties: {
      type: { type: 'string', format: 'uri-reference', examples: ['about:blank'] },
      title: { type: 'string', examples: ['Not Found'] },
      status: { type: 'integer', minimum: 400, maximum: 599, examples: [404] },
      detail: { type: 'string', examples: ['Item not found for "/books/0".'] },
      code: { type: 'string', examples: ['item_not_found'] },
      exceptions: { type: 'array', items: { type: 'object', properties: { class: { type: 'string' }, message: { type: 'string' }, trace: { type: 'array', items: { type: 'object' } } } } },
    },
    required: ['type', 'title', 'status', 'detail', 'code'],
  },
  'Error.jsonld': {
    description: 'Problem details as a hydra:Error (unprefixed terms, as in collections; /contexts/Error maps them).',
    allOf: [
      ref('Error'),
      {
        type: 'object',
        properties: { '@context': { const: '/contexts/Error' }, '@type': { const: 'Error' }, description: { type: 'string' } },
        required: ['@context', '@type', 'description'],
      },
    ],
  },
  JsonApiErrors: {
    type: 'object',
    description: 'Errors for a client that asked for JSON:API (JSON:API 1.1, Errors): one error object per violation of a 422, with `source.pointer` into the request document, else one. In the debug configuration `meta` holds the message and the exception chain.',
    properties: {
      jsonapi: { type: 'object', properties: { version: { const: '1.1' } }, required: ['version'] },
      errors: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          properties: {
            status: { type: 'string', pattern: '^[45][0-9][0-9]$', examples: ['404'] },
            code: { type: 'string', examples: ['item_not_found'] },
            title: { type: 'string', examples: ['Not Found'] },
            detail: { type: 'string', examples: ['Item not found for "/books/0".'] },
            source: { type: 'object', properties: { pointer: { type: 'string', examples: ['/data/attributes/title'] } }, required: ['pointer'] },
          },
          required: ['status', 'code', 'title', 'detail'],
        },
      },
      meta: { type: 'object' },
    },
    required: ['jsonapi', 'errors'],
  },
  ConstraintViolation: {
    type: 'object',
    properties: {
      propertyPath: { type: 'string', description: 'Dotted path of the property; empty for the whole body.', examples: ['title'] },
      message: { type: 'string', examples: ['This value should not be blank.'] },
      code: { type: 'string', examples: ['required'] },
    },
    required: ['propertyPath', 'message', 'code'],
  },
  ConstraintViolationList: {
    description: 'A 422 problem document (RFC 9457) listing every violation; `detail` joins them, one per line.',
    allOf: [ref('Error'), { type: 'object', properties: { violations: { type: 'array', items: ref('ConstraintViolation') } }, required: ['violations'] }],
  },
  'ConstraintViolationList.jsonld': {
    allOf: [ref('Error.jsonld'), { type: 'object', properties: { violations: { type: 'array', items: ref('ConstraintViolation') } }, required: ['violations'] }],
  },
};
