import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';

type OnSend = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => void;

/**
 * RFC 9110 §8.6: a 304 may carry Content-Length only if it is the length a 200 to the same request
 * would have had. Fastify's HEAD routes (exposeHeadRoutes) end with a hook that sets Content-Length
 * from the payload, and to 0 when there is none, as a 304 has: a HEAD revalidation told caches
 * the representation was empty. Every HEAD route gets one more hook, after Fastify's, that drops
 * the field from a 304 (a GET's 304 never had it).
 */
const dropNotModifiedLength: OnSend = (_request, reply, payload, done) => {
  if (reply.statusCode === 304) reply.removeHeader('content-length');
  done(null, payload);
};

/** For an `onRoute` hook: a HEAD route's 304 carries no Content-Length. */
export function headNotModifiedWithoutLength(route: RouteOptions): void {
  if (route.method !== 'HEAD') return;
  const own = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
  route.onSend = [...own, dropNotModifiedLength] as RouteOptions['onSend'];
}
