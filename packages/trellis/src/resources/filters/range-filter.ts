import { sql, type SqlBool } from 'kysely';
import { checkPropertyTypes, paramValues, type AnySelect, type Filter, type FilterContext } from '../filter.ts';
import { applyTerms, bindingOf, type FilterTerm } from '../filter-term.ts';
import { integerRange, type IntegerRange } from '../integer-range.ts';
import { invalidFilter, parseNumber } from './invalid-filter.ts';

const OPERATORS = { lt: '<', gt: '>', lte: '<=', gte: '>=' } as const;

/** A condition no row meets (a bound past what the column holds, an empty range). */
const NOTHING = (name: string): FilterTerm => ({ shape: `${name}:none`, values: [], apply: (q) => q.where(sql<SqlBool>`1 = 0`) });

/**
 * A bound on an integer column as an inclusive whole number inside its range: `gt 1.5` is
 * `>= 2`, `lte 99999999999` every row (`all`), `gt 99999999999` none.
 */
function inclusiveBound(op: keyof typeof OPERATORS, n: number, range: IntegerRange): { symbol: '>=' | '<='; value: number } | 'all' | 'none' {
  const low = op === 'gt' ? Math.floor(n) + 1 : op === 'gte' ? Math.ceil(n) : null;
  if (low !== null) return low <= range.min ? 'all' : low > range.max ? 'none' : { symbol: '>=', value: low };
  const high = op === 'lt' ? Math.ceil(n) - 1 : Math.floor(n);
  return high >= range.max ? 'all' : high < range.min ? 'none' : { symbol: '<=', value: high };
}

/** Numeric ranges: `price[lt]`, `price[gt]`, `price[lte]`, `price[gte]`, `price[between]=10..20`. */
export function rangeFilter(properties: readonly string[]): Filter {
  const operators = Object.entries(OPERATORS).map(([op, symbol]) => ({ op, symbol: sql.raw(symbol) }));
  const names = properties.map((property) => ({ property, bounds: operators.map((o) => ({ ...o, name: `${property}[${o.op}]` })), between: `${property}[between]` }));
  const terms = ({ params, resource }: FilterContext): FilterTerm[] => {
    const out: FilterTerm[] = [];
    for (const { property, bounds, between } of names) {
      const definition = resource.property.get(property)!;
      const column = definition.column;
      const integer = definition.type === 'integer' ? integerRange(definition.schema) : null;
      for (const { op, name, symbol } of bounds) {
        for (const value of paramValues(params, name)) {
          const n = parseNumber(name, value);
          if (integer === null) {
            out.push({ shape: name, values: [n], apply: (q) => q.where(sql<SqlBool>`${sql.ref(column)} ${symbol} ${n}`) });
            continue;
          }
          // An integer column compared with a bound it cannot hold (PostgreSQL refuses the query):
          // the same rows, asked with a whole number inside its range, or with nothing to ask.
          const bound = inclusiveBound(op as keyof typeof OPERATORS, n, integer);
          // Every value the column holds still leaves out the rows without one, as the comparison would.
          if (bound === 'all') out.push({ shape: `${name}:all`, values: [], apply: (q) => q.where(sql<SqlBool>`${sql.ref(column)} is not null`) });
          else if (bound === 'none') out.push(NOTHING(name));
          else out.push({ shape: `${name}:${bound.symbol}`, values: [bound.value], apply: (q) => q.where(sql<SqlBool>`${sql.ref(column)} ${sql.raw(bound.symbol)} ${bound.value}`) });
        }
      }
      for (const value of paramValues(params, between)) {
        const parts = value.split('..');
        if (parts.length !== 2) throw invalidFilter(between, value, 'expected two numbers separated by "..", such as 10..20');
        let [low, high] = parts.map((b) => parseNumber(between, b)) as [number, number];
        if (integer !== null) {
          low = Math.max(Math.ceil(low), integer.min);
          high = Math.min(Math.floor(high), integer.max);
          if (low > high) {
            out.push(NOTHING(between));
            continue;
          }
        }
        out.push({ shape: between, values: [low, high], apply: (q) => q.where(sql<SqlBool>`${sql.ref(column)} between ${low} and ${high}`) });
      }
    }
    return out;
  };
  return {
    name: 'range',
    // On a text column `price < 5` compares text with a number: SQLite orders by storage class and
    // answers nonsense, PostgreSQL refuses the query. Refused at declaration.
    check: (resource) => checkPropertyTypes('range', resource, properties, ['integer', 'number']),
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
