import type { CompiledQuery } from 'kysely';
import type { Database } from '../data/database.ts';
import type { ResourceDefinition } from './define-resource.ts';
import type { AnySelect } from './filter.ts';

/** Compiled into the page query in place of the real limit and offset, then swapped for them. */
const LIMIT = 987_654_321;
const OFFSET = 123_456_789;

/** A compiled query whose last two parameters are the page's limit and offset. */
interface PageTemplate {
  readonly compiled: CompiledQuery;
  readonly prefix: readonly unknown[];
}

interface CollectionTemplates {
  readonly page: PageTemplate | null;
  readonly all: CompiledQuery;
  readonly count: CompiledQuery;
}

interface ResourceTemplates {
  item?: CompiledQuery;
  collection?: CollectionTemplates;
}

/** The same compiled SQL with other parameter values: what Kysely would produce, without building it again. */
function withParameters(compiled: CompiledQuery, parameters: readonly unknown[]): CompiledQuery {
  return { query: compiled.query, queryId: compiled.queryId, sql: compiled.sql, parameters };
}

/**
 * Queries the default provider compiles once per database and resource, then runs with new
 * parameter values: building and compiling a Kysely query costs more than running it on SQLite.
 * Only shapes the request cannot change are kept: the item by identifier, and the page, the
 * unpaginated list and the COUNT of a collection when no filter parameter is present (filters may
 * change the SQL itself, so those queries are built per request). Databases with Kysely plugins
 * get no templates: plugins transform each query as it is compiled.
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
      templates = {};
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

  /**
   * The unfiltered collection queries. `build` gives the ordered select and the base for the
   * COUNT, as the provider builds them for a request without filter parameters.
   */
  collection(db: Database, resource: ResourceDefinition, build: () => { readonly query: AnySelect; readonly base: AnySelect }): CollectionTemplates | null {
    const templates = this.#templates(db, resource);
    if (templates === null) return null;
    if (templates.collection === undefined) {
      const { query, base } = build();
      const page = query.limit(LIMIT).offset(OFFSET).compile();
      const n = page.parameters.length;
      templates.collection = {
        // Some dialects inline a limit; then the page is built per request.
        page: n >= 2 && page.parameters[n - 2] === LIMIT && page.parameters[n - 1] === OFFSET ? { compiled: page, prefix: page.parameters.slice(0, -2) } : null,
        all: query.compile(),
        count: base.select((eb) => eb.fn.countAll().as('n')).compile(),
      };
    }
    return templates.collection;
  }

  static page(template: PageTemplate, limit: number, offset: number): CompiledQuery {
    return withParameters(template.compiled, template.prefix.length === 0 ? [limit, offset] : [...template.prefix, limit, offset]);
  }
}
