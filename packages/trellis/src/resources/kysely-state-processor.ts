import { HttpError } from '../kernel/http-error.ts';
import { parseIdentifier } from './resource-registry.ts';
import type { StateProcessor } from './state-processor.ts';
import type { Item } from './state-provider.ts';
import type { ResourceDefinition } from './define-resource.ts';
import type { Violation } from './violation.ts';

/** Turns a unique-constraint failure (SQLite or PostgreSQL 23505) into a violation on the right property. */
function uniqueViolation(error: unknown, resource: ResourceDefinition): Violation | null {
  const e = error as { message?: string; code?: string; detail?: string };
  let column: string | undefined;
  const sqlite = /UNIQUE constraint failed: \w+\.(\w+)/.exec(e.message ?? '');
  if (sqlite) column = sqlite[1];
  else if (e.code === '23505') column = /Key \((\w+)\)/.exec(e.detail ?? '')?.[1];
  else return null;
  const property = resource.properties.find((p) => p.column === column)?.name ?? '';
  return { propertyPath: property, message: 'This value is already used.', code: 'unique' };
}

function isForeignKeyFailure(error: unknown): boolean {
  const e = error as { message?: string; code?: string };
  return e.code === '23503' || /FOREIGN KEY constraint failed/.test(e.message ?? '');
}

/** The default processor: inserts, updates or deletes a row of the resource's table with Kysely. */
export const kyselyStateProcessor: StateProcessor = {
  async process(data, operation, ctx): Promise<Item | null> {
    const resource = operation.resource;
    const mapper = ctx.registry.mapper(resource);
    const idColumn = resource.property.get('id')!.column;
    const iri = `${resource.path}/${ctx.params.id ?? ''}`;
    try {
      if (operation.method === 'POST') {
        const row = await ctx.db.insertInto(resource.table).values(mapper.toRow(data)).returning(mapper.selectColumns).executeTakeFirstOrThrow();
        return mapper.toItem(row);
      }
      const id = parseIdentifier(resource, ctx.params.id ?? '');
      if (id === null) throw HttpError.of('item_not_found', { iri });
      if (operation.method === 'DELETE') {
        await ctx.db.deleteFrom(resource.table).where(idColumn, '=', id).execute();
        return null;
      }
      const row = await ctx.db.updateTable(resource.table).set(mapper.toRow(data)).where(idColumn, '=', id).returning(mapper.selectColumns).executeTakeFirst();
      if (row === undefined) throw HttpError.of('item_not_found', { iri });
      return mapper.toItem(row);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      const unique = uniqueViolation(error, resource);
      if (unique) throw HttpError.of('validation_failed', { detail: `${unique.propertyPath}: ${unique.message}` }, { extensions: { violations: [unique] } });
      if (operation.method === 'DELETE' && isForeignKeyFailure(error)) throw HttpError.of('resource_conflict', { iri }, { cause: error });
      throw error;
    }
  },
};
