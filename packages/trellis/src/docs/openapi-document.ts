import type { Format } from '../formats/format.ts';
import type { ResourceDefinition } from '../resources/define-resource.ts';
import type { ResourceRegistry } from '../resources/resource-registry.ts';
import { builtinPaths } from './builtin-paths.ts';
import { COMMON_SCHEMAS } from './common-schemas.ts';
import { ERROR_RESPONSES } from './error-responses.ts';
import type { JsonSchema } from './json-schema.ts';
import { operationObject } from './operation-object.ts';
import { openApiPath } from './operation-parameters.ts';
import { resourceSchemas } from './resource-schemas.ts';
import { securitySchemes, type AuthenticationMethods } from './security-schemes.ts';
import { usedSchemas } from './unused-schemas.ts';

/** OpenAPI 3.1 §4.8.3 Contact Object. */
export interface OpenApiContact {
  readonly name?: string;
  readonly url?: string;
  readonly email?: string;
}

/** OpenAPI 3.1 §4.8.5 Server Object. */
export interface OpenApiServer {
  readonly url: string;
  readonly description?: string;
}

export interface OpenApiOptions {
  /** The API's title. */
  readonly name: string;
  readonly version?: string;
  readonly description?: string;
  readonly registry: ResourceRegistry;
  /** The output formats, in server preference order (the first is the default media type). */
  readonly formats: readonly Format[];
  readonly authentication: AuthenticationMethods;
  /** Who to contact about the API (`info.contact`). */
  readonly contact?: OpenApiContact;
  /** Where the API is served (`servers`); the docs plugin gives the request's origin when none is configured. */
  readonly servers?: readonly OpenApiServer[];
}

/**
 * The OpenAPI 3.1 document of an app, derived from its declared resources (nothing hand-written
 * per route): every operation with its parameters, bodies and responses per format, the error
 * responses, the security schemes and the framework's own routes.
 */
export function openApiDocument(options: OpenApiOptions): JsonSchema {
  const { registry, formats, authentication } = options;
  const resources: readonly ResourceDefinition[] = registry.resources;
  const security = securitySchemes(authentication);
  const paths = builtinPaths(resources, options.name, authentication.loginPath, security);
  const schemas: Record<string, JsonSchema> = { ...COMMON_SCHEMAS };
  for (const resource of resources) {
    Object.assign(schemas, resourceSchemas(resource, registry));
    for (const op of resource.operations) {
      const path = openApiPath(op.path);
      ((paths[path] ??= {}) as JsonSchema)[op.method.toLowerCase()] = operationObject(op, formats, security, registry);
    }
  }
  const doc: JsonSchema = {
    openapi: '3.1.0',
    info: {
      title: options.name,
      version: options.version ?? '1.0.0',
      description:
        options.description ??
        `Resources are available as ${formats.map((f) => f.mediaTypes[0]).join(', ')} (Accept header, or a URL extension such as \`.jsonld\`). ` +
          'Errors are problem details (RFC 9457). The Hydra documentation is at /docs.jsonld.',
      ...(options.contact ? { contact: { ...options.contact } } : {}),
    },
    ...(options.servers && options.servers.length > 0 ? { servers: options.servers.map((s) => ({ ...s })) } : {}),
    tags: [
      ...resources.map((r) => ({ name: r.name, ...(r.description ? { description: r.description } : {}) })),
      { name: 'Entrypoint', description: 'Where a client starts.' },
      ...(authentication.loginPath ? [{ name: 'Authentication', description: 'Tokens for the bearer scheme.' }] : []),
      { name: 'JSON-LD', description: 'Contexts of the JSON-LD documents.' },
      { name: 'Documentation', description: 'This documentation, as OpenAPI and as Hydra.' },
    ],
    paths,
    components: { schemas, responses: { ...ERROR_RESPONSES }, securitySchemes: security.schemes },
    security: security.optional,
  };
  (doc.components as JsonSchema).schemas = usedSchemas(doc, schemas);
  return doc;
}
