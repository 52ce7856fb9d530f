import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TrellisConfig } from '../app/config.ts';
import type { Database } from '../data/database.ts';
import { registerJsonBodyParsers } from '../formats/json-body-parsers.ts';
import { entrypointContext, errorContext, resourceContext } from '../formats/jsonld/hydra-context.ts';
import { jsonldErrorFormat } from '../formats/jsonld/jsonld-error-format.ts';
import { jsonapiErrorFormat } from '../formats/jsonapi/jsonapi-error-format.ts';
import { OUTPUT_FORMATS } from '../formats/output-formats.ts';
import { routeNotFound } from '../kernel/routing-errors.ts';
import { addVary } from '../http/vary.ts';
import type { ResourceDefinition } from './define-resource.ts';
import { FormatNegotiator } from './format-negotiator.ts';
import { API_DOCUMENTATION_REL, apiDocumentationLink, originOf } from './link-header.ts';
import { OperationPipeline } from './pipeline.ts';
import { ResourceRegistry } from './resource-registry.ts';
import { schemaDrift } from './schema-drift.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The declared resources and the negotiator, for the entrypoint, the docs and the profiler. */
    resources: { readonly registry: ResourceRegistry; readonly negotiator: FormatNegotiator };
  }
}

export interface ResourcesPluginOptions {
  readonly config: TrellisConfig;
  readonly name: string;
  readonly resources: readonly unknown[];
  readonly database: unknown;
}

/** A CORS preflight is not an API response (Fetch §3.2.2); everything else is. */
function isPreflight(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' && request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined;
}

/**
 * Declared resources → routes. Each operation gets a pipeline built once; the plugin also
 * serves the JSON-LD contexts, registers the body parsers and the JSON-LD error flavour, and
 * adds the Hydra `apiDocumentation` Link (RFC 8288) to every response but CORS preflights.
 */
export const resourcesPlugin = fp(
  async (app: FastifyInstance, opts: ResourcesPluginOptions) => {
    const definitions = opts.resources as readonly ResourceDefinition[];
    const registry = new ResourceRegistry(definitions);
    const negotiator = new FormatNegotiator(OUTPUT_FORMATS);
    app.decorate('resources', { registry, negotiator });
    registerJsonBodyParsers(app);
    app.trellis.errorFormats.push(jsonldErrorFormat, jsonapiErrorFormat);

    app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
      if (!isPreflight(request)) {
        const current = reply.getHeader('link');
        if (current === undefined) reply.header('link', apiDocumentationLink(request));
        else if (!String(current).includes(API_DOCUMENTATION_REL)) reply.header('link', `${String(current)}, ${apiDocumentationLink(request)}`);
      }
      done(null, payload);
    });

    const contexts = new Map<string, (vocab: string) => Record<string, unknown>>([
      ['Entrypoint', (vocab) => entrypointContext(definitions, vocab)],
      ['Error', errorContext],
      ...definitions.map((r) => [r.name, (vocab: string) => resourceContext(r, vocab)] as const),
    ]);
    app.get('/contexts/:name', async (request, reply) => {
      const { name } = request.params as { name: string };
      const [base, ext] = name.endsWith('.jsonld') ? [name.slice(0, -'.jsonld'.length), 'jsonld'] : [name, null];
      const build = contexts.get(base);
      if (build === undefined) throw routeNotFound(request);
      if (ext === null) negotiator.choose(request, 'jsonld');
      addVary(reply, 'Accept');
      return reply.type('application/ld+json; charset=utf-8').send(JSON.stringify(build(`${originOf(request)}/docs.jsonld#`)));
    });

    if (definitions.length === 0) return;
    const db = opts.database as Database | null;
    if (!db) throw new Error('Declared resources need a database: pass `database` or set DATABASE_URL');
    for (const resource of definitions) {
      for (const operation of resource.operations) {
        const pipeline = new OperationPipeline(operation, { registry, db, negotiator });
        const handler = (request: FastifyRequest, reply: FastifyReply) => pipeline.handle(request, reply);
        // The pipeline reads the body itself, after access control (lifecycle.md).
        const config = { deferBody: true, inputMediaTypes: operation.inputMediaTypes };
        app.route({ method: operation.method, url: operation.path, handler, config });
        // `/books.jsonld`: a format extension on a collection path (item paths split it off `:id`).
        if (operation.kind === 'collection' && !operation.path.includes(':')) app.route({ method: operation.method, url: `${operation.path}.:ext`, handler, config });
      }
    }
    // Once started, the resources are checked against the database: a table or column it lacks is
    // said at startup, one warning each, rather than found by a request as a 500. Not awaited:
    // startup does not wait on the database (a down one is DATABASE_WAIT's, and then a 503's).
    app.addHook('onReady', (done) => {
      schemaDrift(db, definitions).then(
        (problems) => {
          for (const problem of problems) app.log.warn({ channel: 'resources' }, problem);
        },
        (error: unknown) => app.log.debug({ err: error, channel: 'resources' }, 'The resources could not be checked against the database schema'),
      );
      done();
    });
  },
  { name: 'trellis-resources' },
);
