import type { FastifyInstance } from 'fastify';
import { resolvePagination } from '../resources/pagination.ts';
import type { QueryParams } from '../resources/state-provider.ts';

/** A collection query as the resource's filters and pagination read it (the API panel). */
export interface QueryDescription {
  readonly filters: readonly { readonly filter: string; readonly parameters: readonly string[]; readonly values: readonly unknown[] | null; readonly error: string | null }[];
  readonly pagination: { readonly enabled: boolean; readonly page: number; readonly itemsPerPage: number; readonly partial: boolean } | null;
}

/**
 * What a collection operation made of a query string: for each filter the query names, the values
 * it binds (its `bind`, the same parsing and validation the provider ran), and the page. Worked
 * out when the API panel is shown, from the stored (redacted) query and the running app's
 * resources, so the request paid nothing for it; a redacted value may no longer parse, and says so.
 */
export function describeQuery(app: FastifyInstance, resourceName: string, operationName: string, query: Readonly<Record<string, unknown>>): QueryDescription | null {
  const registry = app.resources?.registry;
  const resource = registry?.get(resourceName);
  const operation = resource?.operations.find((o) => o.name === operationName);
  if (!registry || !resource || !operation || operation.kind !== 'collection' || operation.method !== 'GET') return null;
  const params = query as QueryParams;
  const named = new Set(Object.keys(params).map((k) => k.replace(/\[\]$/, '')));
  const filters = resource.filters.flatMap((filter): QueryDescription['filters'][number][] => {
    const parameters = filter.parameters(resource).map((p) => p.name).filter((name) => named.has(name));
    if (parameters.length === 0) return [];
    try {
      const values = filter.bind ? filter.bind({ params, resource, registry }).values : null;
      return [{ filter: filter.name, parameters, values, error: null }];
    } catch (error) {
      return [{ filter: filter.name, parameters, values: null, error: (error as Error)?.message ?? String(error) }];
    }
  });
  let pagination: QueryDescription['pagination'] = null;
  try {
    pagination = resolvePagination(resource, params);
  } catch {
    // A page number the operation refused (a 400): the panel shows the query as sent.
  }
  return { filters, pagination };
}
