import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OUTPUT_FORMATS } from '../formats/output-formats.ts';
import { addVary } from '../http/vary.ts';
import { negotiate } from '../http/negotiate.ts';
import { acceptsCoding } from '../http/accept-encoding.ts';
import { HttpError } from '../kernel/http-error.ts';
import { routeNotFound } from '../kernel/routing-errors.ts';
import { etagOf, noneMatch } from '../resources/conditional.ts';
import type { ResourceDefinition } from '../resources/define-resource.ts';
import { originOf } from '../resources/link-header.ts';
import { ResourceRegistry } from '../resources/resource-registry.ts';
import { assetUrl, docsAsset, SWAGGER_UI_VERSION } from './docs-assets.ts';
import { hydraDocumentation } from './hydra-documentation.ts';
import { openApiDocument, type OpenApiContact, type OpenApiServer } from './openapi-document.ts';
import { DOCS_CONTENT_SECURITY_POLICY, swaggerUiPage } from './swagger-ui-page.ts';

export interface DocsPluginOptions {
  readonly name: string;
  readonly resources: readonly unknown[];
  /** The API version shown in the OpenAPI `info`; default 1.0.0. */
  readonly version?: string;
  /** `info.contact` of the OpenAPI document. */
  readonly contact?: OpenApiContact;
  /** `servers` of the OpenAPI document; by default the origin the document was asked on. */
  readonly servers?: readonly OpenApiServer[];
}

/** Documents kept for as many origins (Host values) at most; others are built per request. */
const MAX_CACHED_ORIGINS = 8;

const OPENAPI_JSON = ['application/json', 'application/vnd.openapi+json', 'application/vnd.oai.openapi+json'];
const OPENAPI_YAML = ['application/yaml', 'application/vnd.oai.openapi'];
/** What `/docs` speaks, in server preference order: the UI first, so `*\/*` gets it. */
const DOCS_MEDIA_TYPES = ['text/html', ...OPENAPI_JSON, 'application/ld+json', ...OPENAPI_YAML];

/**
 * The API documentation: OpenAPI 3.1 at `/docs.json` and `/docs.yaml`, Hydra at `/docs.jsonld`,
 * Swagger UI at `/docs` (its files under `/docs/assets/`), and `/` for browsers. The firewall
 * leaves `/docs*` public (security/path-rule.ts). Documents are built once, on first request,
 * from the resources and the routes the app really has.
 */
export const docsPlugin = fp(
  async (app: FastifyInstance, opts: DocsPluginOptions) => {
    type Built = { json: string; etag: string; yaml?: { text: string; etag: string } };
    // One document per origin: without configured servers, `servers` names the origin the
    // document was asked on (OpenAPI 3.1 §4.8.5), so Swagger UI and generated clients call
    // the host the reader reached, behind any trusted proxy. The document is built once; an
    // origin costs its `servers` entry and one JSON encoding (YAML only when asked for).
    const built = new Map<string, Built>();
    let base: ReturnType<typeof openApiDocument> | null = null;
    const loginPath = () => (app.hasRoute({ method: 'POST', url: '/auth' }) ? '/auth' : null);
    const document = () => {
      if (base === null) {
        const registry = app.hasDecorator('resources') ? app.resources.registry : new ResourceRegistry(opts.resources as readonly ResourceDefinition[]);
        const formats = app.hasDecorator('resources') ? app.resources.negotiator.formats : OUTPUT_FORMATS;
        base = openApiDocument({
          name: opts.name,
          version: opts.version,
          registry,
          formats,
          // The security plugin's defaults: JWT bearer and X-API-Key always, Basic in debug only.
          authentication: { loginPath: loginPath(), bearer: true, apiKey: true, basic: app.trellis.config.debug },
          ...(opts.contact ? { contact: opts.contact } : {}),
          servers: opts.servers ?? [],
        });
      }
      return base;
    };
    const serversOf = (origin: string) => opts.servers ?? (origin === '' ? [] : [{ url: origin, description: 'This server.' }]);
    const documents = (request: FastifyRequest): Built => {
      const origin = opts.servers ? '' : originOf(request);
      let docs = built.get(origin);
      if (docs === undefined) {
        // A request whose Host was refused has no origin; it never reaches here (the guard's 400).
        const json = JSON.stringify({ ...document(), servers: serversOf(origin) });
        docs = { json, etag: etagOf(json) };
        // Host is the client's to choose (TRUSTED_HOSTS aside): the cache does not grow with it.
        if (built.size < MAX_CACHED_ORIGINS) built.set(origin, docs);
      }
      return docs;
    };
    const yamlOf = async (docs: Built) => {
      if (docs.yaml === undefined) {
        // Loaded on the first request for the YAML document: startup does not pay for a YAML library.
        const { stringify: toYaml } = await import('yaml');
        const text = toYaml(JSON.parse(docs.json), { aliasDuplicateObjects: false });
        docs.yaml = { text, etag: etagOf(text) };
      }
      return docs.yaml;
    };
    const page = () => swaggerUiPage({ name: opts.name, specUrl: '/docs.json', loginPath: loginPath(), asset: assetUrl }).toString();

    /** RFC 9110 §13.1.2: a client holding the current document gets 304 (Swagger UI reloads often). */
    const send = (request: FastifyRequest, reply: FastifyReply, type: string, body: string, etag: string) => {
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (!noneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.type(type).send(body);
    };
    const sendOpenApi = async (request: FastifyRequest, reply: FastifyReply, mediaType: string) => {
      const docs = documents(request);
      if (OPENAPI_YAML.includes(mediaType)) {
        const yaml = await yamlOf(docs);
        return send(request, reply, `${mediaType}; charset=utf-8`, yaml.text, yaml.etag);
      }
      return send(request, reply, `${mediaType}; charset=utf-8`, docs.json, docs.etag);
    };
    const sendHydra = (request: FastifyRequest, reply: FastifyReply) => {
      const resources = app.hasDecorator('resources') ? app.resources.registry.resources : (opts.resources as readonly ResourceDefinition[]);
      const body = JSON.stringify(hydraDocumentation(resources, { name: opts.name, vocab: `${originOf(request)}/docs.jsonld#` }));
      return send(request, reply, 'application/ld+json; charset=utf-8', body, etagOf(body));
    };
    const sendPage = (reply: FastifyReply) =>
      reply.header('content-security-policy', DOCS_CONTENT_SECURITY_POLICY).header('x-frame-options', 'DENY').header('referrer-policy', 'no-referrer').header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page());

    app.get('/docs', async (request, reply) => {
      addVary(reply, 'Accept');
      const mediaType = negotiate(request.headers.accept, DOCS_MEDIA_TYPES);
      if (mediaType === null) throw HttpError.of('not_acceptable', { accept: request.headers.accept ?? '', supported: DOCS_MEDIA_TYPES.map((m) => `"${m}"`).join(', ') });
      if (mediaType === 'text/html') return sendPage(reply);
      if (mediaType === 'application/ld+json') return sendHydra(request, reply);
      return sendOpenApi(request, reply, mediaType);
    });
    // The extension names the document; Accept only picks among the labels of that document.
    app.get('/docs.json', async (request, reply) => {
      addVary(reply, 'Accept');
      return sendOpenApi(request, reply, negotiate(request.headers.accept, OPENAPI_JSON) ?? 'application/json');
    });
    app.get('/docs.yaml', async (request, reply) => {
      addVary(reply, 'Accept');
      return sendOpenApi(request, reply, negotiate(request.headers.accept, OPENAPI_YAML) ?? 'application/yaml');
    });
    app.get('/docs.jsonld', async (request, reply) => sendHydra(request, reply));

    app.get('/docs/assets/:file', async (request, reply) => {
      const { file } = request.params as { file: string };
      const asset = docsAsset(file);
      if (asset === null) throw routeNotFound(request);
      const { v } = request.query as { v?: unknown };
      // Versioned URLs (the page's) never change; a bare URL is revalidated.
      const versioned = typeof v === 'string' && v.startsWith(`${SWAGGER_UI_VERSION}-`) && v.endsWith(asset.etag.slice(1, 9));
      reply.header('cache-control', versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate');
      // RFC 9110 §12.5.3: gzip only where the client weighs it above 0 (`gzip;q=0` refuses it).
      const gzip = acceptsCoding(request.headers['accept-encoding'], 'gzip') ? asset.gzip() : null;
      // RFC 9110 §8.8.3: a strong tag names one sequence of bytes, so the gzipped representation
      // has its own: with one tag for both, a cache or a range request could join or swap them.
      const etag = gzip === null ? asset.etag : `${asset.etag.slice(0, -1)}-gzip"`;
      reply.header('etag', etag).header('x-content-type-options', 'nosniff');
      addVary(reply, 'Accept-Encoding');
      if (!noneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
      if (gzip !== null) reply.header('content-encoding', 'gzip');
      return reply.type(asset.type).send(gzip ?? asset.body);
    });

    // `/` is the entrypoint (app/entrypoint-plugin.ts); a browser asking for HTML (RFC 9110 §12.5.1) gets the docs UI instead.
    const entrypointTypes = () => [...(app.hasDecorator('resources') ? app.resources.negotiator.mediaTypes : ['application/json']), 'text/html'];
    // A callback hook with a one-character test first: every request passes here, and only `/` may stop.
    app.addHook('onRequest', (request, reply, done) => {
      const url = request.url;
      // Only "/" and "/?…" (63 is "?").
      if (url.charCodeAt(0) !== 47 || (url.length > 1 && url.charCodeAt(1) !== 63)) return done();
      if (request.method !== 'GET' && request.method !== 'HEAD') return done();
      if (negotiate(request.headers.accept, entrypointTypes()) !== 'text/html') return done();
      addVary(reply, 'Accept');
      sendPage(reply);
    });
  },
  { name: 'trellis-docs' },
);
