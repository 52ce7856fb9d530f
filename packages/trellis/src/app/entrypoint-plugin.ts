import fp from 'fastify-plugin';
import { JSONAPI_MEDIA_TYPE } from '../formats/jsonapi/jsonapi-media-type.ts';
import type { FastifyInstance } from 'fastify';
import { entrypointKey } from '../formats/jsonld/hydra-context.ts';
import { addVary } from '../http/vary.ts';

/**
 * The API entrypoint at `/` (Hydra `Entrypoint`): one link per resource collection, so a client
 * can start from `/` and follow links. JSON-LD by default; plain JSON, HAL and JSON:API on request.
 * The resources are read at request time from `app.resources` (registered after this plugin).
 */
export const entrypointPlugin = fp(
  async (app: FastifyInstance, opts: { name: string }) => {
    app.get('/', async (request, reply) => {
      const resources = app.hasDecorator('resources') ? app.resources.registry.resources : [];
      const links = Object.fromEntries(resources.filter((r) => r.operations.some((o) => o.name === 'getCollection')).map((r) => [entrypointKey(r), r.path]));
      const negotiated = app.hasDecorator('resources') ? app.resources.negotiator.choose(request, null) : null;
      addVary(reply, 'Accept');
      const format = negotiated?.format.name ?? 'json';
      let doc: Record<string, unknown>;
      if (format === 'jsonld') doc = { '@context': '/contexts/Entrypoint', '@id': '/', '@type': 'Entrypoint', ...links };
      else if (format === 'jsonhal') doc = { _links: { self: { href: '/' }, ...Object.fromEntries(Object.entries(links).map(([k, v]) => [k, { href: v }])) }, name: opts.name };
      else if (format === 'jsonapi') doc = { links: { self: '/', ...links }, meta: { name: opts.name } };
      else doc = { name: opts.name, ...links };
      const type = negotiated?.contentType ?? 'application/json; charset=utf-8';
      // A Buffer is sent as typed: Fastify adds `charset` to a JSON string's type, which JSON:API forbids.
      return reply.type(type).send(type === JSONAPI_MEDIA_TYPE ? Buffer.from(JSON.stringify(doc)) : JSON.stringify(doc));
    });
  },
  { name: 'trellis-entrypoint' },
);
