import type { CompiledQuery } from 'kysely';
import type { Database } from '../data/database.ts';
import type { ResourceDefinition } from './define-resource.ts';
import type { AnySelect } from './filter.ts';

/** Compiled into the page query in place of the real limit and offset, then swapped for them. */
const LIMIT = 987_654_321;
const OFFSET = 123_456_789;

interface CollectionTemplates {
  /** Ends with the limit and offset; null when the dialect does not bind them. */
  readonly page: CompiledQuery | null;
  /** Unpaginated. */
  readonly all: CompiledQuery;
  readonly count: CompiledQuery;
}

interface ResourceTemplates {
  item?: CompiledQuery;
  exists?: CompiledQuery;
  /** By the filters' shape (`Filter.bind`); null when a shape's SQL did not bind what its filters said. */
  readonly collections: Map<string, CollectionTemplates | null>;
}

/** Distinct filter shapes kept per resource; clients combine a handful of filters. */
const SHAPES_PER_RESOURCE = 256;

function sameValues(actual: readonly unknown[], expected: readonly unknown[]): boolean {
  return actual.length === expected.length && actual.every((v, i) => Object.is(v, expected[i]));
}

/** The same compiled SQL with other parameter values: what Kysely would produce, without building it again. */
function withParameters(compiled: CompiledQuery, parameters: readonly unknown[]): CompiledQuery {
  return { query: compiled.query, queryId: compiled.queryId, sql: compiled.sql, parameters };
}

/**
 * Queries the default provider compiles once per database and resource, then runs with new
 * parameter values: building and compiling a Kysely query costs more than running it on SQLite.
 * Kept: the item by identifier, and a collection's page, unpaginated list and COUNT per filter
 * shape (`Filter.bind`). Databases with Kysely plugins get none: plugins transform each query as
 * it is compiled.
 */
export class CompiledQueries {
  readonly #byDatabase = new WeakMap<Database, Map<ResourceDefinition, ResourceTemplates>>();

  #templates(db: Database, resource: ResourceDefinition): ResourceTemplates | null {
    let byResource = this.#byDatabase.get(db);
    if (byResource === undefined) {
      if (db.getExecutor().plugins.length > 0) return null;
      byResource = new Map();
      this.#byDatabase.set(db, byResource);
    }
    let templates = byResource.get(resource);
    if (templates === undefined) {
      templates = { collections: new Map() };
      byResource.set(resource, templates);
    }
    return templates;
  }

  /** `SELECT … WHERE id = ?` for `id`; `build` makes the query for any identifier. */
  item(db: Database, resource: ResourceDefinition, id: string | number, build: (id: string | number) => AnySelect): CompiledQuery {
    const templates = this.#templates(db, resource);
    if (templates === null) return build(id).compile();
    // Compiled with the identifier itself: its only parameter, so swapping it is exact.
    templates.item ??= build(id).compile();
    return templates.item.parameters.length === 1 ? withParameters(templates.item, [id]) : build(id).compile();
  }

  /** `SELECT id … WHERE id = ?` for `id`: whether a relation's target exists. */
  exists(db: Database, resource: ResourceDefinition, id: string | number): CompiledQuery {
    const idColumn = resource.property.get('id')!.column;
    const build = () => db.selectFrom(resource.table).select(idColumn).where(idColumn, '=', id).compile();
    const templates = this.#templates(db, resource);
    if (templates === null) return build();
    templates.exists ??= build();
    return templates.exists.parameters.length === 1 ? withParameters(templates.exists, [id]) : build();
  }

  /**
   * The collection queries for one filter shape: `values` are what the filters bind (`Filter.bind`),
   * `build` gives the ordered select and the COUNT's base for this request. The first request of a
   * shape compiles them and checks they bind exactly `values` (then the limit and offset); later
   * ones of the same shape substitute their values. Null: build this request's queries instead.
   */
  collection(db: Database, resource: ResourceDefinition, shape: string, values: readonly unknown[], build: () => { readonly query: AnySelect; readonly base: AnySelect }): CollectionTemplates | null {
    const templates = this.#templates(db, resource);
    if (templates === null) return null;
    let entry = templates.collections.get(shape);
    if (entry === undefined) {
      const { query, base } = build();
      const page = query.limit(LIMIT).offset(OFFSET).compile();
      const all = query.compile();
      const count = base.select((eb) => eb.fn.countAll().as('n')).compile();
      const n = page.parameters.length;
      // Some dialects inline a limit; a query binding other values than its filters said is not reused.
      const bound = sameValues(all.parameters, values) && sameValues(count.parameters, values) && sameValues(page.parameters.slice(0, -2), values);
      entry = bound ? { page: n >= 2 && page.parameters[n - 2] === LIMIT && page.parameters[n - 1] === OFFSET ? page : null, all, count } : null;
      if (templates.collections.size >= SHAPES_PER_RESOURCE) templates.collections.clear();
      templates.collections.set(shape, entry);
    }
    return entry;
  }

  /** The templates with this request's filter values, limit and offset. */
  static bind(templates: CollectionTemplates, values: readonly unknown[], page: { limit: number; offset: number } | null): { rows: CompiledQuery | null; count: CompiledQuery } {
    const count = values.length === 0 ? templates.count : withParameters(templates.count, values);
    if (page === null) return { rows: values.length === 0 ? templates.all : withParameters(templates.all, values), count };
    if (templates.page === null) return { rows: null, count };
    return { rows: withParameters(templates.page, values.length === 0 ? [page.limit, page.offset] : [...values, page.limit, page.offset]), count };
  }

}

/** The templates of this process: queries are compiled per database, so one cache serves every app. */
export const compiledQueries = new CompiledQueries();
