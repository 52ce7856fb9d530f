import fp from 'fastify-plugin';
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addVary } from './vary.ts';
import { routedPathOf } from '../kernel/routed-path.ts';
import type { CorsConfig, TrellisConfig } from '../app/config.ts';

/** The methods cross-origin callers may use (Fetch standard, CORS protocol); headers are configured (CorsConfig). */
export const CORS_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * Per-request options for @fastify/cors. A disallowed (or absent) origin disables CORS for the
 * request entirely, so it gets no Access-Control-* header at all; only `Vary: Origin` remains,
 * because the answer depends on Origin (Fetch §3.2.5, "CORS protocol and HTTP caches"). The
 * allowed origin is echoed, never `*`. Only OPTIONS with Access-Control-Request-Method is a
 * preflight (Fetch §3.2.2); any other OPTIONS is routed like any request.
 */
function corsOptions(cors: CorsConfig, allowed: boolean, preflight: boolean): FastifyCorsOptions {
  return Object.freeze({
    // `true` echoes the request's Origin: never `*`, which credentials would forbid anyway (Fetch §3.2.5).
    origin: allowed,
    methods: [...CORS_METHODS],
    allowedHeaders: [...cors.allowHeaders],
    exposedHeaders: [...cors.exposeHeaders],
    maxAge: cors.maxAgeSeconds,
    credentials: cors.allowCredentials,
    preflight,
    strictPreflight: false,
  });
}

/** The four possible answers, built once: the per-request work is one header read and one regex test. */
function answers(cors: CorsConfig): readonly FastifyCorsOptions[] {
  return [corsOptions(cors, false, false), corsOptions(cors, false, true), corsOptions(cors, true, false), corsOptions(cors, true, true)];
}

/** The profiler's and the toolbar's paths, for a method none of their routes has (a 405, a 404). */
const PROFILER_PATH = /^\/(_profiler|_wdt)(\/|$)/;

function optionsFor(request: FastifyRequest, allow: RegExp, OPTIONS: readonly FastifyCorsOptions[]): FastifyCorsOptions {
  const origin = request.headers.origin;
  allow.lastIndex = 0;
  const asked = request.headers['access-control-request-method'];
  const preflight = asked !== undefined;
  // A preflight for a method no cross-origin request may use ("FOO BAR", TRACE, or a lower-case
  // "patch", which fetch does not upper-case and this server refuses with a 400) is refused as one from
  // a disallowed origin is: no Access-Control-* header, routed like any OPTIONS (Fetch §3.2.2).
  // The profiler's routes (they carry its gate) never answer another origin: a page on an allowed
  // origin (any localhost port by default) could otherwise read every profile, and the CSRF
  // tokens of its forms, through fetch. The gate admits the machine, not every page it runs.
  const profiler = request.routeOptions?.config?.gate !== undefined || PROFILER_PATH.test(routedPathOf(request));
  const allowed = !profiler && typeof origin === 'string' && allow.test(origin) && (!preflight || (CORS_METHODS as readonly string[]).includes(String(asked)));
  return OPTIONS[(allowed ? 2 : 0) + (preflight ? 1 : 0)]!;
}

/**
 * The preflight phase (onRequest, registered before the profiler and the firewall): preflights
 * are answered 204 here and go no further: no profile, no routing, no authentication.
 *
 * @fastify/cors also declares an `OPTIONS *` route so that preflights have a route to match. Here
 * preflights never need one (they are answered in onRequest, which runs for unmatched requests
 * too), and a catch-all route would make every path look routable to the 404/405 logic, turning
 * `GET /robots.txt` into a 405. So the plugin is applied to a view of the app without `options()`.
 */
export const corsPlugin = fp(
  async (app: FastifyInstance, opts: { config: TrellisConfig }) => {
    const allow = opts.config.corsAllowOrigin;
    const options = answers(opts.config.cors);
    // A request without Origin is not a CORS request (Fetch §3.2): it only needs `Vary: Origin`,
    // so it skips @fastify/cors's per-request work.
    type Hook = (request: FastifyRequest, reply: FastifyReply, done: () => void) => void;
    const addHook = (name: 'onRequest', hook: Hook) =>
      app.addHook(name, function (this: FastifyInstance, request, reply, done) {
        if (request.headers.origin === undefined) {
          addVary(reply, 'Origin');
          return done();
        }
        hook.call(this, request, reply, done);
      });
    const view = {
      decorateRequest: app.decorateRequest.bind(app),
      addHook,
      options: () => view,
    } as unknown as FastifyInstance;
    await new Promise<void>((resolve, reject) => {
      (cors as unknown as (i: FastifyInstance, o: object, next: (e?: Error) => void) => void)(
        view,
        { hook: 'onRequest', delegator: (request: FastifyRequest, cb: (e: Error | null, o: FastifyCorsOptions) => void) => cb(null, optionsFor(request, allow, options)) },
        (error) => (error ? reject(error) : resolve()),
      );
    });
  },
  { name: 'trellis-cors', fastify: '5.x' },
);
