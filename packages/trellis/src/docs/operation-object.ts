import type { Format } from '../formats/format.ts';
import type { Operation } from '../resources/operation.ts';
import type { ResourceRegistry } from '../resources/resource-registry.ts';
import { errorRef } from './error-responses.ts';
import { ref, type JsonSchema } from './json-schema.ts';
import { operationParameters } from './operation-parameters.ts';
import type { SecuritySchemes } from './security-schemes.ts';

/** Output format name → the suffix of its component schemas (see resource-schemas.ts). */
const OUTPUT_SUFFIX: Readonly<Record<string, string>> = { jsonld: '.jsonld', json: '', jsonhal: '.jsonhal', jsonapi: '.jsonapi' };

/** Request body media type → the write schema that reads it. */
function inputSchema(op: Operation, mediaType: string): JsonSchema {
  const name = op.resource.name;
  if (mediaType === 'application/ld+json') return ref(`${name}.jsonld-input`);
  if (mediaType === 'application/vnd.api+json') return ref(`${name}.${op.merge ? 'jsonapi-patch' : 'jsonapi-input'}`);
  return ref(`${name}.${op.merge ? 'patch' : 'input'}`);
}

function outputSchema(op: Operation, format: Format, collection: boolean): JsonSchema {
  const name = op.resource.name;
  const suffix = OUTPUT_SUFFIX[format.name];
  if (suffix === undefined) return {};
  if (collection) return format.name === 'json' ? { type: 'array', items: ref(name) } : ref(`${name}${suffix}.collection`);
  // A JSON-LD item carries its @context; collection members do not.
  return format.name === 'jsonld' ? { allOf: [ref(`${name}.jsonld`)], required: ['@context'] } : ref(`${name}${suffix}`);
}

const header = (description: string, schema: JsonSchema = { type: 'string' }) => ({ description, schema });

/**
 * `getBookCollection`, `patchBook`: stable, unique, readable in generated clients. No `_`:
 * Swagger UI's deep links would read it as an escaped space.
 */
export const operationId = (op: Operation): string => (op.name === 'getCollection' ? `get${op.resource.name}Collection` : `${op.name}${op.resource.name}`);

/**
 * One resource operation as an OpenAPI Operation Object: parameters, the request body per
 * accepted media type, the success response per output format, and exactly the errors this
 * operation's stages can raise (see kernel/lifecycle.md).
 */
export function operationObject(op: Operation, formats: readonly Format[], security: SecuritySchemes, registry: ResourceRegistry): JsonSchema {
  const collection = op.kind === 'collection' && op.method === 'GET';
  const responses: Record<string, JsonSchema> = {};
  const headers: Record<string, JsonSchema> = {
    Link: header('RFC 8288: the Hydra API documentation; in plain JSON, also the pagination links.'),
  };
  if (op.serialize && op.method !== 'DELETE') {
    headers.ETag = header('The representation\'s entity tag (RFC 9110 §8.8.3), for If-None-Match and If-Match.');
    if (op.method === 'POST' && op.status === 201) headers.Location = header('The IRI of the created item.');
    responses[String(op.status)] = {
      description: op.method === 'POST' ? `${op.resource.name} created.` : `${op.resource.name} ${collection ? 'collection' : 'resource'}.`,
      headers,
      content: Object.fromEntries(formats.map((f) => [f.mediaTypes[0]!, { schema: outputSchema(op, f, collection) }])),
    };
    if (op.method === 'GET') responses['304'] = { description: 'Not modified: the If-None-Match header names the current ETag.' };
  } else {
    responses[String(op.status === 200 ? 204 : op.status)] = { description: `${op.resource.name} ${op.method === 'DELETE' ? 'removed' : 'processed'}.`, headers };
  }

  const errors = new Set<number>([406]);
  if (collection) errors.add(400);
  if (op.kind === 'item' && op.read) errors.add(404);
  const secured = op.security !== null || op.securityPostDenormalize !== null;
  if (secured) {
    errors.add(401);
    errors.add(403);
  }
  if (op.deserialize) [400, 413, 415, 422].forEach((s) => errors.add(s));
  // If-Match is checked against the loaded object: only operations that read one can fail it.
  if (op.kind === 'item' && op.write && op.read) errors.add(412);
  if (op.method === 'DELETE' && op.write) errors.add(409);
  // JSON:API 1.1: a resource object of another type or id is a 409, a client-generated id a 403.
  if (op.deserialize && op.inputMediaTypes.includes('application/vnd.api+json')) {
    errors.add(409);
    if (op.method === 'POST') errors.add(403);
  }
  for (const status of [...errors].sort((a, b) => a - b)) responses[String(status)] = errorRef(status);

  const object: JsonSchema = {
    operationId: operationId(op),
    tags: [op.resource.name],
    summary: op.description,
    ...(op.resource.description ? { description: op.resource.description } : {}),
    parameters: operationParameters(op, registry),
  };
  if (op.deserialize) {
    object.requestBody = {
      required: true,
      description: `The ${op.resource.name} ${op.merge ? 'changes (JSON merge patch, RFC 7396)' : 'to write'}.`,
      content: Object.fromEntries(op.inputMediaTypes.map((m) => [m, { schema: inputSchema(op, m) }])),
    };
  }
  object.responses = responses;
  // Secured operations need credentials; the others accept them (and use them) but do not require them.
  object.security = secured ? security.required : security.optional;
  return object;
}
