import { sql, type SqlBool } from 'kysely';
import { checkProperties, paramValues, type AnySelect, type Filter } from '../filter.ts';
import { parseBoolean } from './invalid-filter.ts';

/** Boolean equality: `?available=true` (also `false`, `1`, `0`). */
export function booleanFilter(properties: readonly string[]): Filter {
  return {
    name: 'boolean',
    check: (resource) => checkProperties('boolean', resource, properties),
    parameters: () => properties.map((property) => ({ name: property, property, type: 'boolean' as const, description: `Filters by ${property}.`, multiple: false })),
    where(query: AnySelect, { params, resource }): AnySelect {
      for (const property of properties) {
        for (const value of paramValues(params, property)) {
          // Stored as 0/1 in SQLite and boolean in PostgreSQL; comparing with a bound boolean-as-integer works on neither, so branch in SQL.
          const column = sql.ref(resource.property.get(property)!.column);
          query = query.where(parseBoolean(property, value) ? sql<SqlBool>`${column} = true` : sql<SqlBool>`${column} = false`);
        }
      }
      return query;
    },
  };
}
