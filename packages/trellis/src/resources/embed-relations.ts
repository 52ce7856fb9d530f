import type { Database } from '../data/database.ts';
import type { ResourceDefinition } from './define-resource.ts';
import { embedTree } from './embed-paths.ts';
import { Ref } from './ref.ts';
import type { ResourceRegistry } from './resource-registry.ts';
import type { Item } from './state-provider.ts';

/**
 * Replaces the references of the requested relation paths with embedded ones: one query per
 * relation and level for the whole page (`WHERE id IN (…)`), never one per item. A nested path
 * (`book.author`) embeds `book`, then the authors of the books it loaded; a target shared by
 * several items is loaded once and shared.
 */
export async function embedRelations(db: Database, registry: ResourceRegistry, resource: ResourceDefinition, items: readonly Item[], embed: ReadonlySet<string>): Promise<void> {
  for (const [property, nested] of embedTree(embed)) {
    const def = resource.property.get(property);
    if (!def?.relation || items.length === 0) continue;
    const target = registry.get(def.relation)!;
    const ids = [...new Set(items.map((i) => (i[property] instanceof Ref ? (i[property] as Ref).id : null)).filter((id) => id !== null))];
    if (ids.length === 0) continue;
    const mapper = registry.mapper(target);
    const idColumn = target.property.get('id')!.column;
    const rows = await db.selectFrom(target.table).select(mapper.selectColumns).where(idColumn, 'in', ids).execute();
    const byId = new Map(rows.map((r) => [r[idColumn] as string | number, mapper.toItem(r)]));
    for (const item of items) {
      const ref = item[property];
      if (ref instanceof Ref) item[property] = new Ref(target, ref.id, byId.get(ref.id) ?? null);
    }
    if (nested.size > 0) await embedRelations(db, registry, target, [...byId.values()], nested);
  }
}
