import { sql, type SqlBool } from 'kysely';
import { checkProperties, paramValues, type AnySelect, type Filter, type FilterContext } from '../filter.ts';
import { applyTerms, bindingOf, type FilterTerm } from '../filter-term.ts';
import { invalidFilter, parsePropertyNumber } from './invalid-filter.ts';

const OPERATORS = { lt: '<', gt: '>', lte: '<=', gte: '>=' } as const;

/** Numeric ranges: `price[lt]`, `price[gt]`, `price[lte]`, `price[gte]`, `price[between]=10..20`. */
export function rangeFilter(properties: readonly string[]): Filter {
  const operators = Object.entries(OPERATORS).map(([op, symbol]) => ({ op, symbol: sql.raw(symbol) }));
  const names = properties.map((property) => ({ property, bounds: operators.map((o) => ({ ...o, name: `${property}[${o.op}]` })), between: `${property}[between]` }));
  const terms = ({ params, resource }: FilterContext): FilterTerm[] => {
    const out: FilterTerm[] = [];
    for (const { property, bounds, between } of names) {
      const definition = resource.property.get(property)!;
      const column = definition.column;
      for (const { name, symbol } of bounds) {
        for (const value of paramValues(params, name)) {
          const n = parsePropertyNumber(name, value, definition);
          out.push({ shape: name, values: [n], apply: (q) => q.where(sql<SqlBool>`${sql.ref(column)} ${symbol} ${n}`) });
        }
      }
      for (const value of paramValues(params, between)) {
        const parts = value.split('..');
        if (parts.length !== 2) throw invalidFilter(between, value, 'expected two numbers separated by "..", such as 10..20');
        const [low, high] = parts.map((b) => parsePropertyNumber(between, b, definition)) as [number, number];
        out.push({ shape: between, values: [low, high], apply: (q) => q.where(sql<SqlBool>`${sql.ref(column)} between ${low} and ${high}`) });
      }
    }
    return out;
  };
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
    where: (query: AnySelect, context) => applyTerms(query, terms(context)),
    bind: (context) => bindingOf(terms(context)),
  };
}
