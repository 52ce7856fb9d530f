import type { CompiledQuery } from 'kysely';
import type { Database } from '../data/database.ts';
import { CompiledQueries, compiledQueries as compiled } from './compiled-queries.ts';
import type { ResourceDefinition } from './define-resource.ts';
import { embedRelations } from './embed-relations.ts';
import { hasFilterParameters, type AnySelect, type FilterBinding, type FilterContext } from './filter.ts';
import { databaseRejectedValue } from '../data/database-rejected-value.ts';
import { parseIdentifier } from './resource-registry.ts';
import type { Item, Page, StateProvider } from './state-provider.ts';

const UNFILTERED: FilterBinding = { shape: '', values: [] };

/**
 * The filters' shape and values for this request (`Filter.bind`): where-filters first, in
 * declaration order, as `collectionQuery` applies them. Null when a filter whose parameters are
 * present cannot bind.
 */
function bindFilters(resource: ResourceDefinition, fc: FilterContext): FilterBinding | null {
  if (!hasFilterParameters(resource, fc.params)) return UNFILTERED;
  let shape = '';
  const values: unknown[] = [];
  for (const pass of [true, false]) {
    for (const f of resource.filters) {
      if ((f.where !== undefined) !== pass) continue;
      if (f.bind === undefined) return null;
      const b = f.bind(fc);
      shape += `${b.shape}|`;
      for (const v of b.values) values.push(v);
    }
  }
  return { shape, values };
}

function idColumnOf(resource: ResourceDefinition): string {
  return resource.property.get('id')!.column;
}

/** The ordered select and the base the COUNT shares (filters narrow both alike). */
function collectionQuery(db: Database, resource: ResourceDefinition, fc: FilterContext, columns: readonly string[]): { query: AnySelect; base: AnySelect } {
  let base: AnySelect = db.selectFrom(resource.table);
  for (const f of resource.filters) if (f.where) base = f.where(base, fc);
  let query = base.select(columns);
  for (const f of resource.filters) if (f.orderBy) query = f.orderBy(query, fc);
  // A stable tie-breaker, so pages neither repeat nor skip rows.
  query = query.orderBy(idColumnOf(resource));
  return { query, base };
}

/**
 * The default provider: reads the resource's table with Kysely. An item is one query; a page is
 * one query for the items plus one COUNT (none under partial pagination), whatever the page size.
 * The item query, and the collection queries per filter shape, are compiled once (`CompiledQueries`).
 */
export const kyselyStateProvider: StateProvider = {
  async provide(operation, ctx): Promise<Item | Page | null> {
    const resource = operation.resource;
    const mapper = ctx.registry.mapper(resource);
    const db = ctx.db;
    if (operation.kind === 'item') {
      const id = parseIdentifier(resource, ctx.params.id ?? '');
      if (id === null) return null;
      const query = compiled.item(db, resource, id, (value) => db.selectFrom(resource.table).select(mapper.selectColumns).where(idColumnOf(resource), '=', value));
      let row: Record<string, unknown> | undefined;
      try {
        row = (await db.executeQuery(query)).rows[0] as Record<string, unknown> | undefined;
      } catch (error) {
        // An id its column cannot hold (`/tokens/not-a-uuid` on a uuid column) names no item.
        if (databaseRejectedValue(error) !== null) return null;
        throw error;
      }
      if (row === undefined) return null;
      const item = mapper.toItem(row);
      if (ctx.embed.size > 0) await embedRelations(db, ctx.registry, resource, [item], ctx.embed);
      return item;
    }

    const { enabled, page, itemsPerPage, partial } = ctx.pagination;
    const counting = enabled && !partial;
    const fc: FilterContext = { params: ctx.query, resource, registry: ctx.registry };
    const binding = bindFilters(resource, fc);
    let rowsQuery: CompiledQuery | AnySelect | null = null;
    let countQuery: CompiledQuery | AnySelect | null = null;
    if (binding !== null) {
      const templates = compiled.collection(db, resource, binding.shape, binding.values, () => collectionQuery(db, resource, fc, mapper.selectColumns));
      if (templates !== null) {
        const bound = CompiledQueries.bind(templates, binding.values, enabled ? { limit: itemsPerPage, offset: (page - 1) * itemsPerPage } : null);
        rowsQuery = bound.rows;
        countQuery = counting ? bound.count : null;
      }
    }
    if (rowsQuery === null) {
      const { query, base } = collectionQuery(db, resource, fc, mapper.selectColumns);
      rowsQuery = enabled ? query.limit(itemsPerPage).offset((page - 1) * itemsPerPage) : query;
      countQuery = counting ? base.select((eb) => eb.fn.countAll().as('n')) : null;
    }
    const [result, count] = await Promise.all([db.executeQuery(rowsQuery), countQuery === null ? null : db.executeQuery(countQuery)]);
    const rows = result.rows as Record<string, unknown>[];
    const items = new Array<Item>(rows.length);
    for (let i = 0; i < rows.length; i++) items[i] = mapper.toItem(rows[i]!);
    if (ctx.embed.size > 0) await embedRelations(db, ctx.registry, resource, items, ctx.embed);
    const total = count === null ? null : (count.rows[0] as { n?: unknown } | undefined)?.n;
    return { items, totalItems: counting ? Number(total ?? 0) : enabled ? null : items.length };
  },
};
