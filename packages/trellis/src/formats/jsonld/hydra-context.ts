import type { ResourceDefinition } from '../../resources/define-resource.ts';

export const HYDRA = 'http://www.w3.org/ns/hydra/core#';

/** The Hydra collection vocabulary the collection documents use without prefix. */
const HYDRA_TERMS: Record<string, unknown> = {
  hydra: HYDRA,
  Collection: 'hydra:Collection',
  PartialCollectionView: 'hydra:PartialCollectionView',
  IriTemplate: 'hydra:IriTemplate',
  IriTemplateMapping: 'hydra:IriTemplateMapping',
  member: 'hydra:member',
  totalItems: 'hydra:totalItems',
  view: 'hydra:view',
  first: { '@id': 'hydra:first', '@type': '@id' },
  last: { '@id': 'hydra:last', '@type': '@id' },
  previous: { '@id': 'hydra:previous', '@type': '@id' },
  next: { '@id': 'hydra:next', '@type': '@id' },
  search: 'hydra:search',
  template: 'hydra:template',
  // As the Hydra core context has them: a mapping's property and the template's representation
  // are IRIs given as vocabulary terms ("title" is <docs>#Book/title, "BasicRepresentation" is
  // hydra:BasicRepresentation), so a Hydra client can expand the template (alcaeus could not).
  variableRepresentation: { '@id': 'hydra:variableRepresentation', '@type': '@vocab' },
  BasicRepresentation: 'hydra:BasicRepresentation',
  ExplicitRepresentation: 'hydra:ExplicitRepresentation',
  mapping: 'hydra:mapping',
  variable: 'hydra:variable',
  property: { '@id': 'hydra:property', '@type': '@vocab' },
  required: 'hydra:required',
};

/**
 * The JSON-LD context of a resource (`/contexts/Book`): terms resolve against the API
 * documentation's vocabulary (`<docs>#Book/title`), relations are typed `@id` so their IRIs
 * expand as node references.
 */
export function resourceContext(resource: ResourceDefinition, vocab: string): Record<string, unknown> {
  const terms: Record<string, unknown> = { '@vocab': vocab, ...HYDRA_TERMS };
  for (const p of resource.properties) {
    if (p.writeOnly) continue;
    terms[p.name] = p.relation ? { '@id': `${resource.name}/${p.name}`, '@type': '@id' } : `${resource.name}/${p.name}`;
  }
  return { '@context': terms };
}

export function entrypointContext(resources: readonly ResourceDefinition[], vocab: string): Record<string, unknown> {
  const terms: Record<string, unknown> = { '@vocab': vocab, hydra: HYDRA, Entrypoint: 'Entrypoint' };
  for (const r of resources) terms[entrypointKey(r)] = { '@id': `Entrypoint/${entrypointKey(r)}`, '@type': '@id' };
  return { '@context': terms };
}

/** The context of error documents: the Hydra terms they use unprefixed, like collections; the RFC 9457 members resolve against the vocabulary. */
export function errorContext(vocab: string): Record<string, unknown> {
  return { '@context': { '@vocab': vocab, hydra: HYDRA, Error: 'hydra:Error', title: 'hydra:title', description: 'hydra:description' } };
}

/** `Book` → `book`, `BookReview` → `bookReview`. */
export function entrypointKey(resource: ResourceDefinition): string {
  return resource.name.charAt(0).toLowerCase() + resource.name.slice(1);
}
