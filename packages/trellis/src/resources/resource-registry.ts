import { integerRange } from './integer-range.ts';
import type { ResourceDefinition } from './define-resource.ts';
import { Ref } from './ref.ts';
import { RowMapper } from './row-mapper.ts';
import { DefinitionError } from './definition-error.ts';

/** The declared resources of an app, by name and by path, and IRI ↔ identifier conversion. */
export class ResourceRegistry {
  readonly resources: readonly ResourceDefinition[];
  readonly #byName = new Map<string, ResourceDefinition>();
  readonly #mappers = new Map<ResourceDefinition, RowMapper>();

  constructor(resources: readonly ResourceDefinition[]) {
    this.resources = resources;
    for (const r of resources) {
      if (this.#byName.has(r.name)) throw new DefinitionError(`Two resources are named "${r.name}"`);
      this.#byName.set(r.name, r);
    }
    for (const r of resources) {
      for (const p of r.relations) {
        if (!this.#byName.has(p.relation!)) throw new DefinitionError(`Resource "${r.name}": relation "${p.name}" targets unknown resource "${p.relation}"`);
      }
    }
  }

  mapper(resource: ResourceDefinition): RowMapper {
    let m = this.#mappers.get(resource);
    if (m === undefined) {
      m = new RowMapper(resource, this);
      this.#mappers.set(resource, m);
    }
    return m;
  }

  get(name: string): ResourceDefinition | undefined {
    return this.#byName.get(name);
  }

  target(resource: ResourceDefinition, property: string): ResourceDefinition {
    return this.#byName.get(resource.property.get(property)!.relation!)!;
  }

  /** The reference an IRI names when it is an item IRI of `resource` (`/books/12` or an absolute URL), else null. */
  refFromIri(resource: ResourceDefinition, iri: string): Ref | null {
    let path = iri;
    if (/^https?:\/\//i.test(iri)) {
      try {
        path = new URL(iri).pathname;
      } catch {
        return null;
      }
    }
    const prefix = `${resource.path}/`;
    if (!path.startsWith(prefix)) return null;
    const id = parseIdentifier(resource, path.slice(prefix.length));
    return id === null ? null : new Ref(resource, id);
  }
}

/** Parses an identifier as the schema types it; null when it cannot be one (the item cannot exist). */
export function parseIdentifier(resource: ResourceDefinition, raw: string): string | number | null {
  const property = resource.property.get('id')!;
  if (property.type === 'integer' || property.type === 'number') {
    if (!/^[1-9][0-9]{0,15}$/.test(raw)) return null;
    const id = Number(raw);
    // An id its column cannot hold names no item (PostgreSQL would refuse the query: integer-range.ts).
    return property.type === 'number' || id <= integerRange(property.schema).max ? id : null;
  }
  return raw === '' || raw.includes('/') ? null : raw;
}
