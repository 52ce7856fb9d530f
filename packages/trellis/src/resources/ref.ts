import type { ResourceDefinition } from './define-resource.ts';
import type { Item } from './state-provider.ts';

/**
 * A reference from one resource to another (a relation value). Formats render it as an IRI, a
 * HAL link or a JSON:API relationship; when embedded it carries the target's data. Immutable, so
 * copies of an object may share it.
 */
export class Ref {
  readonly resource: ResourceDefinition;
  readonly id: string | number;
  readonly data: Item | null;

  constructor(resource: ResourceDefinition, id: string | number, data: Item | null = null) {
    this.resource = resource;
    this.id = id;
    this.data = data;
    Object.freeze(this);
  }

  get iri(): string {
    return `${this.resource.path}/${this.id}`;
  }

  /** Plain JSON: the IRI, or the target's data when embedded. */
  toJSON(): string | Item {
    return this.data ?? this.iri;
  }
}
