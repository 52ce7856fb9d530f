import { sql, type SqlBool } from 'kysely';
import { checkProperties, paramValues, type AnySelect, type Filter } from '../filter.ts';
import { parseBoolean } from './invalid-filter.ts';

/** Presence: `exists[description]=true` keeps items where the property is not null, `false` where it is. */
export function existsFilter(properties: readonly string[], parameter = 'exists'): Filter {
  return {
    name: 'exists',
    check: (resource) => checkProperties('exists', resource, properties),
    parameters: () =>
      properties.map((property) => ({ name: `${parameter}[${property}]`, property, type: 'boolean' as const, description: `Whether ${property} is set.`, multiple: false })),
    where(query: AnySelect, { params, resource }): AnySelect {
      for (const property of properties) {
        const name = `${parameter}[${property}]`;
        for (const value of paramValues(params, name)) {
          const column = sql.ref(resource.property.get(property)!.column);
          query = query.where(parseBoolean(name, value) ? sql<SqlBool>`${column} is not null` : sql<SqlBool>`${column} is null`);
        }
      }
      return query;
    },
  };
}
