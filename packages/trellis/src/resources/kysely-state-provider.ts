import { embedRelations } from './embed-relations.ts';
import type { AnySelect } from './filter.ts';
import { parseIdentifier } from './resource-registry.ts';
import type { Item, Page, StateProvider } from './state-provider.ts';

/**
 * The default provider: reads the resource's table with Kysely. An item is one query; a page is
 * one query for the items plus one COUNT (none under partial pagination), whatever the page size.
 */
export const kyselyStateProvider: StateProvider = {
  async provide(operation, ctx): Promise<Item | Page | null> {
    const resource = operation.resource;
    const mapper = ctx.registry.mapper(resource);
    const idColumn = resource.property.get('id')!.column;
    if (operation.kind === 'item') {
      const id = parseIdentifier(resource, ctx.params.id ?? '');
      if (id === null) return null;
      const row = await ctx.db.selectFrom(resource.table).select(mapper.selectColumns).where(idColumn, '=', id).executeTakeFirst();
      if (row === undefined) return null;
      const item = mapper.toItem(row);
      if (ctx.embed.size > 0) await embedRelations(ctx.db, ctx.registry, resource, [item], ctx.embed);
      return item;
    }

    const fc = { params: ctx.query, resource, registry: ctx.registry };
    let base: AnySelect = ctx.db.selectFrom(resource.table);
    for (const f of resource.filters) if (f.where) base = f.where(base, fc);
    let query = base.select(mapper.selectColumns);
    for (const f of resource.filters) if (f.orderBy) query = f.orderBy(query, fc);
    // A stable tie-breaker, so pages neither repeat nor skip rows.
    query = query.orderBy(idColumn);
    const { enabled, page, itemsPerPage, partial } = ctx.pagination;
    if (enabled) query = query.limit(itemsPerPage).offset((page - 1) * itemsPerPage);
    const counting = enabled && !partial;
    const [rows, count] = await Promise.all([
      query.execute(),
      counting ? base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst() : null,
    ]);
    const items = rows.map((r) => mapper.toItem(r));
    if (ctx.embed.size > 0) await embedRelations(ctx.db, ctx.registry, resource, items, ctx.embed);
    return { items, totalItems: counting ? Number(count?.n ?? 0) : enabled ? null : items.length };
  },
};
