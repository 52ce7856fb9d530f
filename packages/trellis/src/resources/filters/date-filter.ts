import { sql, type SqlBool } from 'kysely';
import { checkPropertyTypes, paramValues, type AnySelect, type Filter, type FilterContext } from '../filter.ts';
import { applyTerms, bindingOf, type FilterTerm } from '../filter-term.ts';
import { parseDate } from './invalid-filter.ts';

const OPERATORS = { after: '>=', before: '<=', strictly_after: '>', strictly_before: '<' } as const;

/** Date bounds: `publicationDate[after]=2020-01-01` (inclusive), `[before]`, `[strictly_after]`, `[strictly_before]`. */
export function dateFilter(properties: readonly string[]): Filter {
  const names = properties.map((property) => ({ property, bounds: Object.entries(OPERATORS).map(([op, symbol]) => ({ name: `${property}[${op}]`, symbol: sql.raw(symbol) })) }));
  const terms = ({ params, resource }: FilterContext): FilterTerm[] => {
    const out: FilterTerm[] = [];
    for (const { property, bounds } of names) {
      const column = resource.property.get(property)!.column;
      for (const { name, symbol } of bounds) {
        for (const value of paramValues(params, name)) {
          const date = parseDate(name, value);
          out.push({ shape: name, values: [date], apply: (q) => q.where(sql<SqlBool>`${sql.ref(column)} ${symbol} ${date}`) });
        }
      }
    }
    return out;
  };
  return {
    name: 'date',
    // A bound is an ISO date compared in SQL: on a number or a free-form string it matches by
    // accident or not at all. Refused at declaration.
    check: (resource) => checkPropertyTypes('date', resource, properties, ['date', 'date-time']),
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
    where: (query: AnySelect, context) => applyTerms(query, terms(context)),
    bind: (context) => bindingOf(terms(context)),
  };
}
