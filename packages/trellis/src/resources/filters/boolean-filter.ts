import { sql, type SqlBool } from 'kysely';
import { checkPropertyTypes, paramValues, type AnySelect, type Filter, type FilterContext } from '../filter.ts';
import { applyTerms, bindingOf, type FilterTerm } from '../filter-term.ts';
import { parseBoolean } from './invalid-filter.ts';

/** Boolean equality: `?available=true` (also `false`, `1`, `0`). */
export function booleanFilter(properties: readonly string[]): Filter {
  const terms = ({ params, resource }: FilterContext): FilterTerm[] => {
    const out: FilterTerm[] = [];
    for (const property of properties) {
      for (const value of paramValues(params, property)) {
        const column = resource.property.get(property)!.column;
        const wanted = parseBoolean(property, value);
        // Stored as 0/1 in SQLite and boolean in PostgreSQL; comparing with a bound boolean-as-integer works on neither, so branch in SQL.
        out.push({ shape: `${property}=${wanted}`, values: [], apply: (q) => q.where(wanted ? sql<SqlBool>`${sql.ref(column)} = true` : sql<SqlBool>`${sql.ref(column)} = false`) });
      }
    }
    return out;
  };
  return {
    name: 'boolean',
    // On a text column `= true` matched nothing, or failed in SQL (PostgreSQL): refused at declaration.
    check: (resource) => checkPropertyTypes('boolean', resource, properties, ['boolean']),
    parameters: () => properties.map((property) => ({ name: property, property, type: 'boolean' as const, description: `Filters by ${property}.`, multiple: false })),
    where: (query: AnySelect, context) => applyTerms(query, terms(context)),
    bind: (context) => bindingOf(terms(context)),
  };
}
