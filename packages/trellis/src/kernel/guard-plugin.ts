import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { TrellisConfig } from '../app/config.ts';
import { ipMatcher } from '../http/ip-matcher.ts';
import { publish } from '../observe/channels.ts';
import { guardRequest } from './request-guards.ts';
import { routingError } from './routing-errors.ts';
import { malformedUrlError } from './malformed-url.ts';
import { requestScope, type RequestScope } from './request-scope.ts';

/** The methods some route of a Trellis app may answer: what `OPTIONS *` lists. */
const SERVER_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

/**
 * The guard phase (onRequest): Host validation, trusted hosts, client address behind trusted
 * proxies; in debug, also enters the request scope that keeps the request's log records.
 * May answer 400.
 */
export const guardPlugin = fp(
  async (app: FastifyInstance, opts: { config: TrellisConfig }) => {
    const { config } = opts;
    const guardOptions = { trustedHosts: config.trustedHosts, isTrustedProxy: ipMatcher(config.trustedProxies) };
    const guard = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      // Every response, errors included: a client must take the Content-Type as sent, never
      // sniff a JSON body or a profile's captured text into HTML (WHATWG Fetch §X-Content-Type-Options).
      reply.header('x-content-type-options', 'nosniff');
      // A path the router could not decode, routed again escaped (malformed-url.ts): its URL is
      // put back at once (so logs and the profile show it as sent), its 400 given after the guard.
      const malformed = malformedUrlError(request);
      try {
        request.clientIp = guardRequest(request, guardOptions);
      } catch (error) {
        done(error as Error);
        return;
      }
      if (malformed) {
        done(malformed);
        return;
      }
      // RFC 9110 §9.3.7: "OPTIONS *" asks about the server as a whole, not a resource.
      if (request.raw.url === '*' && request.method === 'OPTIONS') {
        reply.code(204).header('allow', SERVER_METHODS).send();
        return;
      }
      // Routing decides before the body is touched: a request no route answers is a 404 or a 405
      // now, whatever its body (malformed, 2 MB, a QUERY without Content-Type) would have made it.
      if (request.is404) {
        done(routingError(request, app.trellis.routes));
        return;
      }
      done();
    };
    if (!config.debug) {
      app.addHook('onRequest', (request, reply, done) => guard(request, reply, done));
      return;
    }
    // A debug instance is neither cached by shared caches nor indexed (Symfony's defaults in debug);
    // a response that says how to cache it keeps its own Cache-Control.
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-cache, private');
      reply.header('x-robots-tag', 'noindex');
      done(null, payload);
    });
    app.addHook('onRequest', (request, reply, done) => {
      publish('phase', () => ({ request, phase: 'guard', at: performance.now() }));
      const scope: RequestScope = { logs: [] };
      request.trellisScope = scope;
      // Everything after this hook runs inside the scope, so log records land with the request.
      requestScope.run(scope, () => guard(request, reply, done));
    });
  },
  { name: 'trellis-guard', fastify: '5.x' },
);
