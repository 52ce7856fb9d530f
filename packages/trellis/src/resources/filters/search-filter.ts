import { sql, type Expression, type SqlBool } from 'kysely';
import { checkProperties, paramValues, type AnySelect, type Filter } from '../filter.ts';
import { invalidFilter, parseNumber } from './invalid-filter.ts';

export type SearchStrategy = 'exact' | 'partial' | 'start' | 'end' | 'word_start' | 'iexact' | 'ipartial' | 'istart' | 'iend' | 'iword_start';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function condition(column: string, strategy: SearchStrategy, value: string): Expression<SqlBool> {
  const insensitive = strategy.startsWith('i');
  const base = (insensitive ? strategy.slice(1) : strategy) as 'exact' | 'partial' | 'start' | 'end' | 'word_start';
  const col = insensitive ? sql`lower(${sql.ref(column)})` : sql.ref(column);
  const v = insensitive ? value.toLowerCase() : value;
  const like = (pattern: string) => sql<SqlBool>`${col} like ${pattern} escape '\\'`;
  switch (base) {
    case 'exact':
      return sql<SqlBool>`${col} = ${v}`;
    case 'partial':
      return like(`%${escapeLike(v)}%`);
    case 'start':
      return like(`${escapeLike(v)}%`);
    case 'end':
      return like(`%${escapeLike(v)}`);
    case 'word_start':
      return sql<SqlBool>`(${like(`${escapeLike(v)}%`)} or ${like(`% ${escapeLike(v)}%`)})`;
  }
}

/**
 * Text search (`?title=dune`): exact, partial, start, end and word_start matching, each with a
 * case-insensitive `i…` variant. Several values (`title[]=a&title[]=b`) match any of them.
 * On relations and numbers only `exact` applies; relation values may be IRIs or identifiers.
 */
export function searchFilter(properties: Readonly<Record<string, SearchStrategy>>): Filter {
  const names = Object.keys(properties);
  return {
    name: 'search',
    check: (resource) => checkProperties('search', resource, names),
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
    where(query: AnySelect, { params, resource, registry }): AnySelect {
      for (const name of names) {
        const values = paramValues(params, name);
        if (values.length === 0) continue;
        const p = resource.property.get(name)!;
        const conditions = values.map((value) => {
          if (p.relation) {
            const target = registry.get(p.relation)!;
            const ref = registry.refFromIri(target, value.includes('/') ? value : `${target.path}/${value}`);
            if (ref === null) throw invalidFilter(name, value, `expected an IRI of ${p.relation}`);
            return sql<SqlBool>`${sql.ref(p.column)} = ${ref.id}`;
          }
          if (p.type === 'integer' || p.type === 'number') return sql<SqlBool>`${sql.ref(p.column)} = ${parseNumber(name, value)}`;
          return condition(p.column, properties[name]!, value);
        });
        query = query.where((eb) => eb.or(conditions));
      }
      return query;
    },
  };
}
