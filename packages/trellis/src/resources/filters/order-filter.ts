import { checkProperties, paramValues, type AnySelect, type Filter, type FilterContext } from '../filter.ts';
import { bindingOf, type FilterTerm } from '../filter-term.ts';
import { invalidFilter } from './invalid-filter.ts';

export interface OrderFilterOptions {
  /** The query parameter, `order` by default: `order[title]=desc`. */
  readonly parameter?: string;
  /** Applied when the request orders by nothing, e.g. `{ publicationDate: 'desc' }`. */
  readonly default?: Readonly<Record<string, 'asc' | 'desc'>>;
}

/** Sorting: `order[title]=asc|desc`; several keys sort in the order they appear in the query. */
export function orderFilter(properties: readonly string[], options: OrderFilterOptions = {}): Filter {
  const parameter = options.parameter ?? 'order';
  const prefix = `${parameter}[`;
  const fallback = Object.entries(options.default ?? {});
  const terms = ({ params, resource }: FilterContext): FilterTerm[] => {
    const out: FilterTerm[] = [];
    for (const key in params) {
      if (!key.startsWith(prefix)) continue;
      const property = key.slice(prefix.length, -1);
      if (!properties.includes(property)) continue;
      const raw = paramValues(params, key)[0];
      const direction = raw?.toLowerCase();
      if (direction !== 'asc' && direction !== 'desc') throw invalidFilter(key, String(raw), 'expected asc or desc');
      const column = resource.property.get(property)!.column;
      out.push({ shape: `${property} ${direction}`, values: [], apply: (q) => q.orderBy(column, direction) });
    }
    if (out.length === 0) {
      for (const [property, direction] of fallback) {
        const column = resource.property.get(property)!.column;
        out.push({ shape: `${property} ${direction}`, values: [], apply: (q) => q.orderBy(column, direction) });
      }
    }
    return out;
  };
  return {
    name: 'order',
    check: (resource) => checkProperties('order', resource, [...properties, ...fallback.map(([p]) => p)]),
    parameters: () =>
      properties.map((property) => ({
        name: `${parameter}[${property}]`,
        property,
        type: 'string' as const,
        description: `Sorts by ${property}.`,
        multiple: false,
        enum: ['asc', 'desc'],
      })),
    orderBy(query: AnySelect, context): AnySelect {
      for (const term of terms(context)) query = term.apply(query);
      return query;
    },
    bind: (context) => bindingOf(terms(context)),
  };
}
