import type { Database } from '../data/database.ts';
import { closestName } from './closest-name.ts';
import type { ResourceDefinition } from './define-resource.ts';
import { kyselyStateProcessor } from './kysely-state-processor.ts';
import { kyselyStateProvider } from './kysely-state-provider.ts';

/** Whether any operation of the resource reads or writes its table through Kysely (the default). */
function usesTable(resource: ResourceDefinition): boolean {
  return resource.operations.some((o) => o.provider === kyselyStateProvider || o.processor === kyselyStateProcessor);
}

/**
 * What the database lacks that the declared resources need: a table, or a property's column, one
 * sentence each, with the likeliest name meant. Without this a column misspelt in `columns` (or a
 * migration not run) was found by the first request that touched it, as a 500.
 *
 * Tables are matched by name in any schema the introspector lists (PostgreSQL: all but the
 * system ones), their columns merged: lenient where a name is ambiguous, never a false alarm.
 */
export async function schemaDrift(db: Database, resources: readonly ResourceDefinition[]): Promise<string[]> {
  const wanted = resources.filter(usesTable);
  if (wanted.length === 0) return [];
  const tables = new Map<string, Set<string>>();
  for (const table of await db.introspection.getTables()) {
    const columns = tables.get(table.name) ?? new Set<string>();
    for (const column of table.columns) columns.add(column.name);
    tables.set(table.name, columns);
  }
  const problems: string[] = [];
  for (const resource of wanted) {
    const columns = tables.get(resource.table);
    if (columns === undefined) {
      const meant = closestName(resource.table, [...tables.keys()]);
      problems.push(`Resource "${resource.name}": the database has no table "${resource.table}"${meant ? ` (did you mean "${meant}"? set \`table\`)` : ' (a migration not run?)'}; its operations will fail`);
      continue;
    }
    for (const property of resource.properties) {
      if (columns.has(property.column)) continue;
      const meant = closestName(property.column, [...columns]);
      problems.push(`Resource "${resource.name}": table "${resource.table}" has no column "${property.column}" for property "${property.name}"${meant ? ` (did you mean "${meant}"?)` : ''}; its operations will fail`);
    }
  }
  return problems;
}
