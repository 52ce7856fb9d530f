import { checkProperties, paramValues, type AnySelect, type Filter } from '../filter.ts';
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
  const fallback = Object.entries(options.default ?? {});
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
    orderBy(query: AnySelect, { params, resource }): AnySelect {
      let ordered = false;
      for (const key of Object.keys(params)) {
        if (!key.startsWith(`${parameter}[`)) continue;
        const property = key.slice(parameter.length + 1, -1);
        if (!properties.includes(property)) continue;
        const value = paramValues(params, key)[0]?.toLowerCase();
        if (value !== 'asc' && value !== 'desc') throw invalidFilter(key, String(paramValues(params, key)[0]), 'expected asc or desc');
        query = query.orderBy(resource.property.get(property)!.column, value);
        ordered = true;
      }
      if (!ordered) for (const [property, direction] of fallback) query = query.orderBy(resource.property.get(property)!.column, direction);
      return query;
    },
  };
}
