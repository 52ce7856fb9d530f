import type { ResourceDefinition } from './define-resource.ts';
import { Ref } from './ref.ts';
import type { ResourceRegistry } from './resource-registry.ts';
import type { Item } from './state-provider.ts';

interface Column {
  readonly property: string;
  readonly column: string;
  readonly target: ResourceDefinition | null;
  /** SQLite stores booleans as 0/1. */
  readonly boolean: boolean;
}

/**
 * Converts database rows to items and items to rows for one resource. Built once per resource so
 * the hot path is a loop over a precomputed column list.
 */
export class RowMapper {
  readonly resource: ResourceDefinition;
  /** The select list: every column the output needs (write-only ones excluded). */
  readonly selectColumns: readonly string[];
  readonly #read: readonly Column[];
  readonly #write: readonly Column[];

  constructor(resource: ResourceDefinition, registry: ResourceRegistry) {
    this.resource = resource;
    const columns = (props: typeof resource.properties) =>
      props.map((p) => ({ property: p.name, column: p.column, target: p.relation ? registry.get(p.relation)! : null, boolean: p.type === 'boolean' }));
    this.#read = columns(resource.properties.filter((p) => !p.writeOnly));
    this.#write = columns(resource.properties.filter((p) => p.name !== 'id'));
    this.selectColumns = this.#read.map((c) => c.column);
  }

  toItem(row: Record<string, unknown>): Item {
    const item: Item = {};
    for (const c of this.#read) {
      const v = row[c.column];
      if (c.target !== null) item[c.property] = v === null || v === undefined ? null : new Ref(c.target, v as number | string);
      else item[c.property] = c.boolean && typeof v === 'number' ? v !== 0 : v;
    }
    return item;
  }

  /** Row values for the given item properties (absent properties are left out). */
  toRow(item: Item): Record<string, unknown> {
    const row: Record<string, unknown> = {};
    for (const c of this.#write) {
      if (!(c.property in item)) continue;
      const v = item[c.property];
      row[c.column] = v instanceof Ref ? v.id : v === undefined ? null : v;
    }
    return row;
  }
}
