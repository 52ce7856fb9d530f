import { entrypointKey } from '../formats/jsonld/hydra-context.ts';
import type { ResourceDefinition } from '../resources/define-resource.ts';
import { errorRef } from './error-responses.ts';
import type { JsonSchema } from './json-schema.ts';
import type { SecuritySchemes } from './security-schemes.ts';

const iri = { type: 'string', format: 'iri-reference' };

/** The entrypoint `/` (app/entrypoint-plugin.ts): one link per collection, in every format; the docs UI for browsers. */
function entrypoint(resources: readonly ResourceDefinition[], name: string, security: SecuritySchemes): JsonSchema {
  const listed = resources.filter((r) => r.operations.some((o) => o.name === 'getCollection'));
  const links = Object.fromEntries(listed.map((r) => [entrypointKey(r), { ...iri, examples: [r.path] }]));
  const keys = Object.keys(links);
  const hal = { type: 'object', properties: { href: iri }, required: ['href'] };
  return {
    get: {
      operationId: 'getEntrypoint',
      tags: ['Entrypoint'],
      summary: 'The API entrypoint: a link to every collection.',
      description: 'Where a client starts: one link per collection, in the negotiated format. A browser asking for HTML gets this documentation instead.',
      responses: {
        200: {
          description: `The ${name} entrypoint; a browser asking for HTML gets this documentation.`,
          content: {
            'application/ld+json': {
              schema: { type: 'object', properties: { '@context': { const: '/contexts/Entrypoint' }, '@id': { const: '/' }, '@type': { const: 'Entrypoint' }, ...links }, required: ['@context', '@id', '@type', ...keys] },
            },
            'application/json': { schema: { type: 'object', properties: { name: { const: name }, ...links }, required: ['name', ...keys] } },
            'application/hal+json': {
              schema: { type: 'object', properties: { _links: { type: 'object', properties: Object.fromEntries(['self', ...keys].map((k) => [k, hal])), required: ['self', ...keys] }, name: { const: name } }, required: ['_links', 'name'] },
            },
            'application/vnd.api+json': {
              schema: { type: 'object', properties: { links: { type: 'object', properties: { self: iri, ...links }, required: ['self', ...keys] }, meta: { type: 'object', properties: { name: { const: name } } } }, required: ['links', 'meta'] },
            },
            'text/html': { schema: { type: 'string', description: 'This interactive documentation.' } },
          },
        },
        406: errorRef(406),
      },
      security: security.optional,
    },
  };
}

function contexts(resources: readonly ResourceDefinition[], security: SecuritySchemes): JsonSchema {
  const names = ['Entrypoint', 'Error', ...resources.map((r) => r.name)];
  return {
    get: {
      operationId: 'getContext',
      tags: ['JSON-LD'],
      summary: 'A JSON-LD context: the terms of a resource, resolved against the Hydra documentation (/docs.jsonld).',
      description: 'The context every JSON-LD document of the resource names in `@context`: its terms are IRIs of the Hydra documentation\'s vocabulary.',
      parameters: [{ name: 'name', in: 'path', required: true, description: 'A resource name, Entrypoint or Error (optionally with `.jsonld`).', schema: { type: 'string', enum: names } }],
      responses: {
        200: { description: 'The context.', content: { 'application/ld+json': { schema: { type: 'object', properties: { '@context': { type: 'object' } }, required: ['@context'] } } } },
        404: errorRef(404),
        406: errorRef(406),
      },
      security: security.optional,
    },
  };
}

function login(path: string): JsonSchema {
  return {
    post: {
      operationId: 'login',
      tags: ['Authentication'],
      summary: 'Exchanges an e-mail and password for a JWT (use it with the Authorize button, scheme bearerAuth).',
      description: 'Send the token back as `Authorization: Bearer <token>`. Repeated failures are throttled per client address and per account (429 with Retry-After).',
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: { email: { type: 'string', examples: ['user@example.com'] }, password: { type: 'string', format: 'password', examples: ['password'] } },
              required: ['email', 'password'],
            },
          },
        },
      },
      responses: {
        200: {
          description: 'The token (RFC 6749 §5.1: never cached).',
          headers: { 'Cache-Control': { schema: { const: 'no-store' } } },
          content: { 'application/json': { schema: { type: 'object', properties: { token: { type: 'string', description: 'A signed JWT.' } }, required: ['token'] } } },
        },
        400: errorRef(400),
        401: errorRef(401),
        415: errorRef(415),
      },
      security: [],
    },
  };
}

function documentation(): Record<string, JsonSchema> {
  const op = (id: string, summary: string, content: Record<string, string>): JsonSchema => ({
    get: {
      operationId: id,
      tags: ['Documentation'],
      summary,
      description: `${summary} Public, built from the declared resources; revalidate with If-None-Match.`,
      responses: {
        200: { description: summary, content: Object.fromEntries(Object.entries(content).map(([type, description]) => [type, { schema: { type: type.includes('json') ? 'object' : 'string', description } }])) },
        304: { description: 'Not modified: the If-None-Match header names the current ETag.' },
        ...(Object.keys(content).length > 1 ? { 406: errorRef(406) } : {}),
      },
      security: [],
    },
  });
  const openapi = { 'application/json': 'OpenAPI 3.1', 'application/vnd.openapi+json': 'OpenAPI 3.1' };
  const yaml = { 'application/yaml': 'OpenAPI 3.1 as YAML' };
  const hydra = { 'application/ld+json': 'Hydra API documentation' };
  return {
    '/docs': op('getDocumentation', 'This documentation: Swagger UI for browsers, else the document the Accept header names.', { 'text/html': 'Swagger UI', ...openapi, ...hydra, ...yaml }),
    '/docs.json': op('getOpenApi', 'This OpenAPI document.', openapi),
    '/docs.yaml': op('getOpenApiYaml', 'This OpenAPI document as YAML.', yaml),
    '/docs.jsonld': op('getHydraDocumentation', 'The Hydra API documentation, target of every response\'s apiDocumentation link.', hydra),
  };
}

/** The paths the framework itself serves besides the resources' operations. */
export function builtinPaths(resources: readonly ResourceDefinition[], name: string, loginPath: string | null, security: SecuritySchemes): Record<string, JsonSchema> {
  return {
    '/': entrypoint(resources, name, security),
    ...(loginPath ? { [loginPath]: login(loginPath) } : {}),
    '/contexts/{name}': contexts(resources, security),
    ...documentation(),
  };
}
