import FindMyWay from 'find-my-way';
import type { FastifyRequest } from 'fastify';
import { redactQuery } from '../logging/redact-query.ts';
import { DEFAULT_SECRET_KEYS, secretKeyMatcher } from '../logging/redact-secrets.ts';
import { HttpError } from './http-error.ts';
import { requestPath, routedPathOf } from './routed-path.ts';

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
/** A route's own access check: false means the route does not exist for this request. */
export type RouteGate = (request: FastifyRequest) => boolean;

/** A route pattern and the methods it answers, sorted as in `Allow`. */
export interface RouteListing {
  readonly path: string;
  readonly methods: readonly string[];
}

interface RouteEntry {
  readonly path: string;
  readonly methods: Set<string>;
  gate: RouteGate | null;
}

export class RouteMap {
  readonly #router = FindMyWay({ ignoreTrailingSlash: false, caseSensitive: true });
  readonly #byPath = new Map<string, RouteEntry>();

  /**
   * `gate`: the route's access check (route config `gate`, e.g. the profiler's); where it refuses
   * a request the path does not exist for it: 404, never a 405 whose Allow would reveal it.
   */
  add(methods: string | readonly string[], path: string, gate?: RouteGate): void {
    this.#entries = null;
    let entry = this.#byPath.get(path);
    if (!entry) {
      entry = { path, methods: new Set(), gate: null };
      this.#byPath.set(path, entry);
      this.#router.on('GET', path, () => undefined, entry);
    }
    if (gate) entry.gate = gate;
    for (const m of typeof methods === 'string' ? [methods] : methods) {
      entry.methods.add(m.toUpperCase());
      // RFC 9110 §9.3.2: HEAD is answered wherever GET is (Fastify exposes HEAD routes for GET).
      if (m.toUpperCase() === 'GET') entry.methods.add('HEAD');
    }
  }

  /**
   * Every route pattern with its methods, sorted as in `Allow` (for `trellis routes`, and the
   * profiler's trace of each 404: the same array until a route is added, so what is worked out
   * from it once is kept with it, route-trace.ts).
   */
  entries(): readonly RouteListing[] {
    return (this.#entries ??= Object.freeze([...this.#byPath].map(([path, entry]) => Object.freeze({ path, methods: Object.freeze([...entry.methods].sort((a, b) => rank(a) - rank(b))) }))));
  }

  #entries: readonly RouteListing[] | null = null;

  /**
   * The route pattern a concrete path matches (`/books/:id` for `/books/1`), or null when none
   * does: what the profiler's dashboard groups requests by.
   */
  patternOf(path: string): string | null {
    try {
      return (this.#router.find('GET', path)?.store as RouteEntry | undefined)?.path ?? null;
    } catch {
      return null;
    }
  }

  /**
   * The methods allowed on a concrete path (as routed: kernel/routed-path.ts), sorted, or null when
   * no route has that path or its gate refuses `request`.
   */
  allowedMethods(path: string, request?: FastifyRequest): string[] | null {
    let found;
    try {
      found = this.#router.find('GET', path);
    } catch {
      return null;
    }
    if (!found) return null;
    const entry = found.store as RouteEntry;
    if (entry.gate !== null && (request === undefined || !entry.gate(request))) return null;
    return [...entry.methods].sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * The error for a request no route answered: 405 when the path exists for other methods, 404
 * otherwise. Each carries a routing-level cause, so debug pages show a chain of two exceptions.
 */
export function routingError(request: FastifyRequest, routes: RouteMap): HttpError {
  // The message names the path as sent (Symfony's path info); the decision uses the routed one.
  const path = requestPath(request.url);
  const method = request.method;
  const allowed = routes.allowedMethods(routedPathOf(request), request);
  if (allowed && !allowed.includes(method)) {
    const allow = allowed.join(', ');
    const cause = HttpError.of('routing_method_not_allowed', { method, path, allow });
    // RFC 9110 §15.5.6: a 405 response MUST carry Allow.
    return HttpError.of('method_not_allowed', { method, path, allow }, { cause, headers: { allow } });
  }
  return routeNotFound(request, path);
}

/**
 * The 404 of a request nothing answers: no route, or a route with nothing behind the name it was
 * given (an unknown asset, context or theme). The message names the path as sent, never the whole
 * target: an absolute-form one may carry userinfo, a raw `#` pairs after it, and the message is
 * logged and profiled.
 */
export function routeNotFound(request: FastifyRequest, path = requestPath(request.url)): HttpError {
  // Symfony names the referring page in the message; its query may carry a credential
  // (`/reset?token=…`): redacted as a request URL is.
  const referer = request.headers.referer === undefined ? undefined : redactQuery(request.headers.referer, secretKeyMatcher(request.server.trellis?.config.profiler.redactKeys ?? DEFAULT_SECRET_KEYS));
  const cause = HttpError.of('routing_resource_not_found', { path });
  return HttpError.of('route_not_found', { method: request.method, path, referer }, { cause });
}
