import { Ref } from '../resources/ref.ts';
import type { Item } from '../resources/state-provider.ts';
import { requireObject, type Format } from './format.ts';

/**
 * The item as Ref.toJSON would write it (a relation as its IRI, an embedded one as its data), but
 * as a plain object: JSON.stringify leaves V8's fast path for any object with a `toJSON`.
 */
function plain(item: Item): Item {
  const out: Item = {};
  for (const key in item) {
    const v = item[key];
    out[key] = v instanceof Ref ? (v.data === null ? v.iri : plain(v.data)) : v;
  }
  return out;
}

/**
 * Plain JSON: items as objects, relations as IRIs (embedded ones as objects), collections as
 * arrays. Pagination travels in the RFC 8288 Link header instead of the body.
 */
export const jsonFormat: Format = {
  name: 'json',
  mediaTypes: ['application/json'],
  extension: 'json',
  encode: (value) => JSON.stringify(value.kind === 'item' ? plain(value.item) : value.items.map(plain)),
  decode: (body) => requireObject(body),
};
