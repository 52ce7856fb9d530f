import { sql, type SqlBool } from 'kysely';
import { checkProperties, paramValues, type AnySelect, type Filter, type FilterContext } from '../filter.ts';
import { applyTerms, bindingOf, type FilterTerm } from '../filter-term.ts';
import { parseBoolean } from './invalid-filter.ts';

/** Presence: `exists[description]=true` keeps items where the property is not null, `false` where it is. */
export function existsFilter(properties: readonly string[], parameter = 'exists'): Filter {
  const names = properties.map((property) => ({ property, name: `${parameter}[${property}]` }));
  const terms = ({ params, resource }: FilterContext): FilterTerm[] => {
    const out: FilterTerm[] = [];
    for (const { property, name } of names) {
      for (const value of paramValues(params, name)) {
        const column = resource.property.get(property)!.column;
        const exists = parseBoolean(name, value);
        out.push({ shape: `${name}=${exists}`, values: [], apply: (q) => q.where(exists ? sql<SqlBool>`${sql.ref(column)} is not null` : sql<SqlBool>`${sql.ref(column)} is null`) });
      }
    }
    return out;
  };
  return {
    name: 'exists',
    check: (resource) => checkProperties('exists', resource, properties),
    parameters: () =>
      properties.map((property) => ({ name: `${parameter}[${property}]`, property, type: 'boolean' as const, description: `Whether ${property} is set.`, multiple: false })),
    where: (query: AnySelect, context) => applyTerms(query, terms(context)),
    bind: (context) => bindingOf(terms(context)),
  };
}
