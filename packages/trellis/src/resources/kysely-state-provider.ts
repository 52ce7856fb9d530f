import type { CompiledQuery } from 'kysely';
import type { Database } from '../data/database.ts';
import { CompiledQueries } from './compiled-queries.ts';
import type { ResourceDefinition } from './define-resource.ts';
import { embedRelations } from './embed-relations.ts';
import { hasFilterParameters, type AnySelect, type FilterContext } from './filter.ts';
import { parseIdentifier } from './resource-registry.ts';
import type { Item, Page, QueryParams, StateProvider } from './state-provider.ts';

const compiled = new CompiledQueries();
const NO_PARAMS: QueryParams = Object.freeze({});

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
 * The item query and unfiltered collection queries are compiled once (`CompiledQueries`).
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
      const row = (await db.executeQuery(query)).rows[0] as Record<string, unknown> | undefined;
      if (row === undefined) return null;
      const item = mapper.toItem(row);
      if (ctx.embed.size > 0) await embedRelations(db, ctx.registry, resource, [item], ctx.embed);
      return item;
    }

    const { enabled, page, itemsPerPage, partial } = ctx.pagination;
    const counting = enabled && !partial;
    let rowsQuery: CompiledQuery | AnySelect;
    let countQuery: CompiledQuery | AnySelect | null;
    const templates = hasFilterParameters(resource, ctx.query)
      ? null
      : compiled.collection(db, resource, () => collectionQuery(db, resource, { params: NO_PARAMS, resource, registry: ctx.registry }, mapper.selectColumns));
    if (templates !== null && (!enabled || templates.page !== null)) {
      rowsQuery = enabled ? CompiledQueries.page(templates.page!, itemsPerPage, (page - 1) * itemsPerPage) : templates.all;
      countQuery = counting ? templates.count : null;
    } else {
      const { query, base } = collectionQuery(db, resource, { params: ctx.query, resource, registry: ctx.registry }, mapper.selectColumns);
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
