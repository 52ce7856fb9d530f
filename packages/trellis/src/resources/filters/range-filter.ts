import { sql, type SqlBool } from 'kysely';
import { checkProperties, paramValues, type AnySelect, type Filter } from '../filter.ts';
import { invalidFilter, parseNumber } from './invalid-filter.ts';

const OPERATORS = { lt: '<', gt: '>', lte: '<=', gte: '>=' } as const;

/** Numeric ranges: `price[lt]`, `price[gt]`, `price[lte]`, `price[gte]`, `price[between]=10..20`. */
export function rangeFilter(properties: readonly string[]): Filter {
  return {
    name: 'range',
    check: (resource) => checkProperties('range', resource, properties),
    parameters: () =>
      properties.flatMap((property) =>
        [...Object.keys(OPERATORS), 'between'].map((op) => ({
          name: `${property}[${op}]`,
          property,
          type: 'number' as const,
          description: op === 'between' ? `${property} between two bounds, inclusive: "10..20".` : `${property} ${OPERATORS[op as keyof typeof OPERATORS]} the value.`,
          multiple: false,
        })),
      ),
    where(query: AnySelect, { params, resource }): AnySelect {
      for (const property of properties) {
        const column = sql.ref(resource.property.get(property)!.column);
        for (const [op, symbol] of Object.entries(OPERATORS)) {
          const name = `${property}[${op}]`;
          for (const value of paramValues(params, name)) {
            query = query.where(sql<SqlBool>`${column} ${sql.raw(symbol)} ${parseNumber(name, value)}`);
          }
        }
        const name = `${property}[between]`;
        for (const value of paramValues(params, name)) {
          const bounds = value.split('..');
          if (bounds.length !== 2) throw invalidFilter(name, value, 'expected two numbers separated by "..", such as 10..20');
          const [low, high] = bounds.map((b) => parseNumber(name, b)) as [number, number];
          query = query.where(sql<SqlBool>`${column} between ${low} and ${high}`);
        }
      }
      return query;
    },
  };
}
