import { HttpError } from '../kernel/http-error.ts';
import { DefinitionError } from './definition-error.ts';
import type { SelectQueryBuilder } from 'kysely';
import type { PropertyType, ResourceDefinition } from './define-resource.ts';
import type { QueryParams } from './state-provider.ts';
import type { ResourceRegistry } from './resource-registry.ts';

export type AnySelect = SelectQueryBuilder<any, any, any>;

export interface FilterContext {
  readonly params: QueryParams;
  readonly resource: ResourceDefinition;
  readonly registry: ResourceRegistry;
}

/** One query parameter a filter understands: what the docs (OpenAPI, Hydra search) publish. */
export interface FilterParameter {
  /** The query parameter name, e.g. `title`, `price[gt]`, `order[title]`. */
  readonly name: string;
  readonly property: string;
  readonly type: 'string' | 'number' | 'integer' | 'boolean' | 'date';
  readonly description: string;
  /** Accepts repeated values (`title[]=a&title[]=b`). */
  readonly multiple: boolean;
  readonly enum?: readonly string[];
}

/** What a filter's SQL is for one request: see `Filter.bind`. */
export interface FilterBinding {
  /** Equal for two requests exactly when `where` and `orderBy` build the same SQL for them. */
  readonly shape: string;
  /** The values `where` binds, in order (`orderBy` binds none). */
  readonly values: readonly unknown[];
}

/**
 * A collection filter. Contract: `where` only narrows the query (it is applied to the COUNT and
 * the page query alike); `orderBy` only orders (page query only); both read only the parameters
 * `parameters()` lists and throw `HttpError` 400 (`invalid_filter`) for a value they cannot use,
 * so no bad value ever reaches SQL. Values are always bound as parameters, never concatenated.
 * When none of those parameters is in the query, `where` and `orderBy` must build the same query
 * whatever the request: the default provider then compiles it once (`compiled-queries.ts`).
 */
export interface Filter {
  readonly name: string;
  parameters(resource: ResourceDefinition): readonly FilterParameter[];
  where?(query: AnySelect, context: FilterContext): AnySelect;
  orderBy?(query: AnySelect, context: FilterContext): AnySelect;
  /**
   * Optional: the shape and bound values of the SQL `where` and `orderBy` would write for these
   * parameters, after the same validation (the same 400s). With it, the default provider runs a
   * query compiled for an earlier request of the same shape; without it, a query naming this
   * filter's parameters is built per request.
   */
  bind?(context: FilterContext): FilterBinding;
  /** Called once at declaration: throws when the filter names properties the resource lacks. */
  check?(resource: ResourceDefinition): void;
}

const NO_VALUES: readonly string[] = Object.freeze([]);

/** All values of a query parameter, accepting both `key=v` and `key[]=v`. */
export function paramValues(params: QueryParams, key: string): readonly string[] {
  const plain = params[key];
  const listed = params[`${key}[]`];
  if (listed === undefined) return plain === undefined ? NO_VALUES : Array.isArray(plain) ? capped(key, plain) : [plain];
  const out: string[] = [];
  for (const v of [plain, listed]) {
    if (v === undefined) continue;
    if (Array.isArray(v)) out.push(...v);
    else out.push(v);
  }
  return capped(key, out);
}

/**
 * Values one filter parameter may take (`title[]=a&title[]=b…`). Each becomes a condition of an
 * OR in SQL, whose size the databases bound (SQLite: "Expression tree is too large" past 1,000):
 * the cap answers 400 long before.
 */
export const MAX_FILTER_VALUES = 100;

function capped(key: string, values: readonly string[]): readonly string[] {
  if (values.length > MAX_FILTER_VALUES) throw HttpError.of('too_many_filter_values', { parameter: key.replace(/\[\]$/, ''), max: MAX_FILTER_VALUES, count: values.length });
  return values;
}

const parameterKeys = new WeakMap<ResourceDefinition, ReadonlySet<string>>();

/** Whether the query names a parameter of one of the resource's filters (`key` or `key[]`). */
export function hasFilterParameters(resource: ResourceDefinition, params: QueryParams): boolean {
  let keys = parameterKeys.get(resource);
  if (keys === undefined) {
    const names = resource.filters.flatMap((f) => f.parameters(resource)).map((p) => p.name);
    keys = new Set([...names, ...names.map((n) => `${n}[]`)]);
    parameterKeys.set(resource, keys);
  }
  for (const key in params) if (keys.has(key)) return true;
  return false;
}

/**
 * Every name a property of the resource, and one a client may read: a filter or an order on a
 * write-only property (a password, a PIN) answers, row by row, what its value is (`?pin=4821`
 * keeps the account or not, `order[pin]` sorts by it, `pin[gt]` halves it), which no
 * representation shows. Refused like an embed of a write-only relation (embed-paths.ts).
 */
export function checkProperties(filter: string, resource: ResourceDefinition, names: readonly string[]): void {
  for (const n of names) {
    const property = resource.property.get(n);
    if (property === undefined) throw new DefinitionError(`Resource "${resource.name}": the ${filter} filter names unknown property "${n}"`);
    if (property.writeOnly) throw new DefinitionError(`Resource "${resource.name}": the ${filter} filter names "${n}", a write-only property; filtering or ordering by it would disclose its values`);
  }
}

/** checkProperties, and each property of one of `types`: a filter's SQL means nothing on another column type. */
export function checkPropertyTypes(filter: string, resource: ResourceDefinition, names: readonly string[], types: readonly PropertyType[]): void {
  checkProperties(filter, resource, names);
  for (const n of names) {
    const { type } = resource.property.get(n)!;
    if (!types.includes(type)) throw new DefinitionError(`Resource "${resource.name}": the ${filter} filter names "${n}", a${/^[aeiou]/.test(type) ? 'n' : ''} ${type} property; it filters ${types.join(' or ')} properties only`);
  }
}
