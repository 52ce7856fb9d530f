import type { ResourceDefinition } from '../../resources/define-resource.ts';

const cache = new WeakMap<ResourceDefinition, string | null>();

/**
 * The collection's `search` IriTemplate (Hydra §5.4): one variable per filter parameter, so
 * clients discover the filters from the response. Serialised once per resource.
 */
export function hydraSearch(resource: ResourceDefinition): string | null {
  let text = cache.get(resource);
  if (text === undefined) {
    const parameters = resource.filters.flatMap((f) => f.parameters(resource));
    text =
      parameters.length === 0
        ? null
        : JSON.stringify({
            '@type': 'IriTemplate',
            template: `${resource.path}{?${parameters.map((p) => p.name).join(',')}}`,
            variableRepresentation: 'BasicRepresentation',
            mapping: parameters.map((p) => ({ '@type': 'IriTemplateMapping', variable: p.name, property: p.property, required: false })),
          });
    cache.set(resource, text);
  }
  return text;
}
