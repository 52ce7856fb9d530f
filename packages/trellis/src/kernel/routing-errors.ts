import FindMyWay from 'find-my-way';
import type { FastifyRequest } from 'fastify';
import { HttpError } from './http-error.ts';

/** The order methods are listed in an Allow header, whatever order routes were declared in. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'QUERY'];
const rank = (m: string) => {
  const i = METHOD_ORDER.indexOf(m);
  return i < 0 ? METHOD_ORDER.length : i;
};

/**
 * A method-agnostic index of every route path, fed by Fastify's onRoute hook. Fastify answers an
 * unmatched method with a 404; RFC 9110 §15.5.6 wants a 405 listing the methods the target does
 * support, so on a miss we look the path up here to tell the two apart.
 */
export class RouteMap {
  readonly #router = FindMyWay({ ignoreTrailingSlash: false, caseSensitive: true });
  readonly #methodsByPath = new Map<string, Set<string>>();

  add(methods: string | readonly string[], path: string): void {
    let set = this.#methodsByPath.get(path);
    if (!set) {
      set = new Set();
      this.#methodsByPath.set(path, set);
      this.#router.on('GET', path, () => undefined, set);
    }
    for (const m of typeof methods === 'string' ? [methods] : methods) {
      set.add(m.toUpperCase());
      // RFC 9110 §9.3.2: HEAD is answered wherever GET is (Fastify exposes HEAD routes for GET).
      if (m.toUpperCase() === 'GET') set.add('HEAD');
    }
  }

  /** Every route pattern with its methods, sorted as in `Allow` (for `trellis routes`). */
  entries(): { path: string; methods: string[] }[] {
    return [...this.#methodsByPath].map(([path, set]) => ({ path, methods: [...set].sort((a, b) => rank(a) - rank(b)) }));
  }

  /** The methods allowed on a concrete path, sorted, or null when no route has that path. */
  allowedMethods(path: string): string[] | null {
    let found;
    try {
      found = this.#router.find('GET', path);
    } catch {
      return null;
    }
    if (!found) return null;
    return [...(found.store as Set<string>)].sort((a, b) => rank(a) - rank(b));
  }
}

export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/**
 * The error for a request no route answered: 405 when the path exists for other methods, 404
 * otherwise. Each carries a routing-level cause, so debug pages show a chain of two exceptions.
 */
export function routingError(request: FastifyRequest, routes: RouteMap): HttpError {
  const path = pathOf(request.url);
  const method = request.method;
  const allowed = routes.allowedMethods(path);
  if (allowed && !allowed.includes(method)) {
    const allow = allowed.join(', ');
    const cause = HttpError.of('routing_method_not_allowed', { method, path, allow });
    // RFC 9110 §15.5.6: a 405 response MUST carry Allow.
    return HttpError.of('method_not_allowed', { method, path, allow }, { cause, headers: { allow } });
  }
  const referer = request.headers.referer;
  const cause = HttpError.of('routing_resource_not_found', { path });
  return HttpError.of('route_not_found', { method, path, referer }, { cause });
}
