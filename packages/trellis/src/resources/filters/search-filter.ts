import { sql, type Expression, type SqlBool } from 'kysely';
import { checkProperties, paramValues, type AnySelect, type Filter, type FilterContext } from '../filter.ts';
import { applyTerms, bindingOf, type FilterTerm } from '../filter-term.ts';
import { invalidFilter, parsePropertyNumber } from './invalid-filter.ts';
import { closestName } from '../closest-name.ts';
import { DefinitionError } from '../definition-error.ts';
import type { ResourceDefinition } from '../define-resource.ts';

export type SearchStrategy = 'exact' | 'partial' | 'start' | 'end' | 'word_start' | 'iexact' | 'ipartial' | 'istart' | 'iend' | 'iword_start';

const STRATEGIES: readonly SearchStrategy[] = ['exact', 'partial', 'start', 'end', 'word_start', 'iexact', 'ipartial', 'istart', 'iend', 'iword_start'];

/** A strategy no search knows (`ipartal`) is refused at declaration: it failed every request that used it, as a 500. */
function checkStrategies(resource: ResourceDefinition, properties: Readonly<Record<string, string>>): void {
  for (const [name, strategy] of Object.entries(properties)) {
    if ((STRATEGIES as readonly string[]).includes(strategy)) continue;
    const meant = closestName(strategy, STRATEGIES);
    throw new DefinitionError(`Resource "${resource.name}": the search filter gives "${name}" the strategy "${strategy}"${meant ? ` (did you mean "${meant}"?)` : ''}; expected one of ${STRATEGIES.join(', ')}`);
  }
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

type Base = 'exact' | 'partial' | 'start' | 'end' | 'word_start';

/** One value's condition: the values it binds, and the SQL over them. */
interface Condition {
  readonly values: readonly unknown[];
  readonly expression: () => Expression<SqlBool>;
}

function textCondition(column: string, strategy: SearchStrategy, value: string): Condition {
  const insensitive = strategy.startsWith('i');
  const base = (insensitive ? strategy.slice(1) : strategy) as Base;
  const col = () => (insensitive ? sql`lower(${sql.ref(column)})` : sql.ref(column));
  const v = insensitive ? value.toLowerCase() : value;
  const like = (pattern: string) => sql<SqlBool>`${col()} like ${pattern} escape '\\'`;
  switch (base) {
    case 'exact':
      return { values: [v], expression: () => sql<SqlBool>`${col()} = ${v}` };
    case 'partial': {
      const pattern = `%${escapeLike(v)}%`;
      return { values: [pattern], expression: () => like(pattern) };
    }
    case 'start': {
      const pattern = `${escapeLike(v)}%`;
      return { values: [pattern], expression: () => like(pattern) };
    }
    case 'end': {
      const pattern = `%${escapeLike(v)}`;
      return { values: [pattern], expression: () => like(pattern) };
    }
    case 'word_start': {
      const first = `${escapeLike(v)}%`;
      const later = `% ${escapeLike(v)}%`;
      return { values: [first, later], expression: () => sql<SqlBool>`(${like(first)} or ${like(later)})` };
    }
  }
}

/**
 * Text search (`?title=dune`): exact, partial, start, end and word_start matching, each with a
 * case-insensitive `i…` variant. Several values (`title[]=a&title[]=b`) match any of them.
 * On relations and numbers only `exact` applies; relation values may be IRIs or identifiers.
 */
export function searchFilter(properties: Readonly<Record<string, SearchStrategy>>): Filter {
  const names = Object.keys(properties);
  const terms = ({ params, resource, registry }: FilterContext): FilterTerm[] => {
    const out: FilterTerm[] = [];
    for (const name of names) {
      const values = paramValues(params, name);
      if (values.length === 0) continue;
      const p = resource.property.get(name)!;
      const conditions = values.map((value): Condition => {
        if (p.relation) {
          const target = registry.get(p.relation)!;
          const ref = registry.refFromIri(target, value.includes('/') ? value : `${target.path}/${value}`);
          if (ref === null) throw invalidFilter(name, value, `expected an IRI of ${p.relation}`);
          return { values: [ref.id], expression: () => sql<SqlBool>`${sql.ref(p.column)} = ${ref.id}` };
        }
        if (p.type === 'integer' || p.type === 'number') {
          const n = parsePropertyNumber(name, value, p);
          return { values: [n], expression: () => sql<SqlBool>`${sql.ref(p.column)} = ${n}` };
        }
        // No text column holds a NUL (PostgreSQL refuses the query, a 422 for a GET), and SQLite's
        // LIKE ends the pattern there, so `?title=%00` matched every row: the same 400 on both.
        if (value.includes('\0')) throw invalidFilter(name, value, 'expected text without a NUL character');
        return textCondition(p.column, properties[name]!, value);
      });
      out.push({
        // The strategy and the property's type are fixed per name, so the count of values is the rest of the shape.
        shape: `${name}*${conditions.length}`,
        values: conditions.length === 1 ? conditions[0]!.values : conditions.flatMap((c) => c.values),
        // A single condition is the same SQL as `eb.or([it])`, without an expression builder.
        apply: (q) => (conditions.length === 1 ? q.where(conditions[0]!.expression()) : q.where((eb) => eb.or(conditions.map((c) => c.expression())))),
      });
    }
    return out;
  };
  return {
    name: 'search',
    check: (resource) => {
      checkProperties('search', resource, names);
      checkStrategies(resource, properties);
    },
    parameters: (resource) =>
      names.map((name) => {
        const p = resource.property.get(name)!;
        return {
          name,
          property: name,
          type: p.type === 'integer' || p.type === 'number' ? p.type : 'string',
          description: `Filters by ${name} (${properties[name]} match${p.relation ? `; an IRI or identifier of ${p.relation}` : ''}).`,
          multiple: true,
        };
      }),
    where: (query: AnySelect, context) => applyTerms(query, terms(context)),
    bind: (context) => bindingOf(terms(context)),
  };
}
