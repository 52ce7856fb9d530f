import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TrellisConfig } from '../app/config.ts';
import { htmlErrorFormat, problemJsonErrorFormat } from '../errors/default-error-formats.ts';
import type { ErrorFormat } from '../errors/error-format.ts';
import { handleError } from './error-handler.ts';
import { headNotModifiedWithoutLength } from './head-not-modified.ts';
import { registerBodyParsers } from './body-parsers.ts';
import { BodyBudget } from './body-budget.ts';
import { markedHandler } from './marked-handler.ts';
import { endLostResponses } from './lost-response.ts';
import type { RequestScope } from './request-scope.ts';
import { RouteMap, routingError, type RouteGate } from './routing-errors.ts';
import type {} from '../security/user.ts';

/** Shared kernel state, reachable as `app.trellis`. */
export interface TrellisContext {
  readonly config: TrellisConfig;
  readonly routes: RouteMap;
  /** Error renderers, negotiated in order; add one to support another error media type. */
  readonly errorFormats: ErrorFormat[];
  /** Request body media types the app parses, for 415 messages. */
  readonly contentTypes: Set<string>;
  /** Where large request bodies wait for memory before they are read (BODY_MEMORY, body-budget.ts). */
  readonly bodyBudget: BodyBudget;
  /** Renders any error through the error phase; used where Fastify bypasses its error handler. */
  handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    trellis: TrellisContext;
  }
  interface FastifyContextConfig {
    /**
     * The route's own access check, run once the client address is known (route-level onRequest,
     * see profiler-plugin.ts). Where it refuses, the route does not exist for the request: the
     * ordinary 404, and 404 rather than 405 for its other methods.
     */
    gate?: RouteGate;
    /** Not recorded by the profiler (its own pages). */
    unprofiled?: boolean;
    /**
     * The handler reads the body itself, after access control (resource operations): parsers
     * pass it the unread stream (kernel/body-parsers.ts).
     */
    deferBody?: boolean;
    /** The media types the route's body may have, named by a 415 (all the app's when absent). */
    inputMediaTypes?: readonly string[];
  }
  interface FastifyRequest {
    /** Client address in IPv4 form, after trusted proxies (set in the guard phase). */
    clientIp: string;
    /** The kernel's request scope in debug mode, null otherwise. */
    trellisScope: RequestScope | null;
    /** `scheme://host` once the Host is validated, else "" (see request-origin.ts). */
    trellisOrigin: string;
  }
}

/**
 * The kernel: shared context, route index for 404/405, JSON parsing, the error phase. The guard
 * phase is guard-plugin.ts, registered after the observers. See lifecycle.md.
 */
export const kernelPlugin = fp(
  async (app: FastifyInstance, opts: { config: TrellisConfig }) => {
    const { config } = opts;
    const routes = new RouteMap();
    const context: TrellisContext = {
      config,
      routes,
      errorFormats: [problemJsonErrorFormat, htmlErrorFormat],
      contentTypes: new Set(['application/json']),
      bodyBudget: new BodyBudget(config.bodyMemory),
      handleError: (error, request, reply) =>
        handleError(error, request, reply, {
          debug: config.debug,
          formats: context.errorFormats,
          supportedContentTypes: () => [...context.contentTypes],
          bodyLimit: config.bodyLimit,
        }),
    };
    app.decorate('trellis', context);
    app.decorateRequest('clientIp', '');
    app.decorateRequest('trellisOrigin', '');
    app.decorateRequest('trellisScope', null);
    app.decorateRequest('user', null);
    // First of the onRequest hooks: a request whose answer its connection lost still ends (log line, profile).
    endLostResponses(app);

    app.addHook('onRoute', (route) => {
      routes.add(route.method, route.url, route.config?.gate);
      route.handler = markedHandler(route.handler);
      headNotModifiedWithoutLength(route);
    });

    registerBodyParsers(app);

    app.setNotFoundHandler((request, reply) => {
      reply.send(routingError(request, routes));
    });
    app.setErrorHandler((error, request, reply) => context.handleError(error, request, reply));
  },
  { name: 'trellis-kernel', fastify: '5.x' },
);
