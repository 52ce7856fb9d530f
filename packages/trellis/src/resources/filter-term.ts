import type { AnySelect, FilterBinding } from './filter.ts';

/**
 * One condition or ordering a filter takes from the query string, parsed and validated once: the
 * shape of its SQL, the values it binds in order, and how it adds itself to a query. A filter's
 * `where`/`orderBy` and `bind` both come from the same terms, so they cannot disagree.
 */
export interface FilterTerm {
  /** Equal for two terms exactly when `apply` writes the same SQL (the values aside). */
  readonly shape: string;
  readonly values: readonly unknown[];
  apply(query: AnySelect): AnySelect;
}

export function applyTerms(query: AnySelect, terms: readonly FilterTerm[]): AnySelect {
  for (const term of terms) query = term.apply(query);
  return query;
}

const EMPTY: FilterBinding = { shape: '', values: [] };

export function bindingOf(terms: readonly FilterTerm[]): FilterBinding {
  if (terms.length === 0) return EMPTY;
  if (terms.length === 1) return { shape: terms[0]!.shape, values: terms[0]!.values };
  return { shape: terms.map((t) => t.shape).join('&'), values: terms.flatMap((t) => t.values) };
}
