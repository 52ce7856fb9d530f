import { requireObject, type Format } from './format.ts';

/**
 * Plain JSON: items as objects, relations as IRIs (embedded ones as objects), collections as
 * arrays. Pagination travels in the RFC 8288 Link header instead of the body.
 */
export const jsonFormat: Format = {
  name: 'json',
  mediaTypes: ['application/json'],
  extension: 'json',
  // Ref.toJSON renders a relation as its IRI, or its data when embedded.
  encode: (value) => JSON.stringify(value.kind === 'item' ? value.item : value.items),
  decode: (body) => requireObject(body),
};
