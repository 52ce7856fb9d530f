import type { FastifyRequest } from 'fastify';

const cache = new WeakMap<FastifyRequest, string>();

/**
 * The request target's path as the router matched it: the path of an absolute-form target
 * (RFC 9112 §3.2.2: `GET http://host/x HTTP/1.1` routes as `/x`), without query or fragment, with
 * percent-escapes decoded as find-my-way decodes them (`decodeURI`: `/%5Fprofiler` is
 * `/_profiler`, while `%2F` and the other reserved characters stay encoded). Every rule that
 * looks at paths (firewall path rules, public paths, 404 vs 405) reads this, never the raw URL,
 * so no spelling of a URL is judged differently from how it is routed. A path that cannot be
 * decoded is returned raw: the router refuses it (400) anyway.
 */
export function routedPath(url: string): string {
  const path = requestPath(url);
  if (!path.includes('%')) return path;
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** The request target's path as sent (percent-escapes kept), absolute form reduced to its path. */
export function requestPath(url: string): string {
  let path = url;
  const scheme = path.indexOf('://');
  if (scheme > 0 && scheme < 6 && /^https?$/i.test(path.slice(0, scheme))) {
    const slash = path.indexOf('/', scheme + 3);
    const query = path.indexOf('?', scheme + 3);
    path = slash === -1 || (query !== -1 && query < slash) ? '/' : path.slice(slash);
  }
  const end = path.search(/[?#]/);
  return end === -1 ? path : path.slice(0, end);
}

/** routedPath of this request, computed once. */
export function routedPathOf(request: FastifyRequest): string {
  let path = cache.get(request);
  if (path === undefined) {
    path = routedPath(request.url);
    cache.set(request, path);
  }
  return path;
}
