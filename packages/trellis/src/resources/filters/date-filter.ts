import { sql, type SqlBool } from 'kysely';
import { checkProperties, paramValues, type AnySelect, type Filter } from '../filter.ts';
import { parseDate } from './invalid-filter.ts';

const OPERATORS = { after: '>=', before: '<=', strictly_after: '>', strictly_before: '<' } as const;

/** Date bounds: `publicationDate[after]=2020-01-01` (inclusive), `[before]`, `[strictly_after]`, `[strictly_before]`. */
export function dateFilter(properties: readonly string[]): Filter {
  return {
    name: 'date',
    check: (resource) => checkProperties('date', resource, properties),
    parameters: () =>
      properties.flatMap((property) =>
        Object.keys(OPERATORS).map((op) => ({
          name: `${property}[${op}]`,
          property,
          type: 'date' as const,
          description: `${property} ${op.replace('_', ' ')} the date (ISO 8601).`,
          multiple: false,
        })),
      ),
    where(query: AnySelect, { params, resource }): AnySelect {
      for (const property of properties) {
        const column = sql.ref(resource.property.get(property)!.column);
        for (const [op, symbol] of Object.entries(OPERATORS)) {
          const name = `${property}[${op}]`;
          for (const value of paramValues(params, name)) {
            query = query.where(sql<SqlBool>`${column} ${sql.raw(symbol)} ${parseDate(name, value)}`);
          }
        }
      }
      return query;
    },
  };
}
