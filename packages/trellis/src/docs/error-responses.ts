import { STATUS_CODES } from 'node:http';
import { HttpError } from '../kernel/http-error.ts';
import type { ErrorCode } from '../kernel/error-codes.ts';
import { ref, type JsonSchema } from './json-schema.ts';

/**
 * Every error is rendered in the negotiated error format: problem+json, its JSON label,
 * hydra:Error, or a JSON:API error document (formats/jsonapi/jsonapi-error-format.ts). The problem+json example is a real error of the status, built from the error table
 * so the docs quote the exact message a client will see.
 */
function errorContent(schema: string, example: JsonSchema): JsonSchema {
  return {
    'application/problem+json': { schema: ref(schema), example },
    'application/json': { schema: ref(schema), example },
    'application/ld+json': { schema: ref(`${schema}.jsonld`) },
    // JSON:API 1.1, Errors: a client that asked for JSON:API gets its error document, a 422 included.
    'application/vnd.api+json': { schema: ref('JsonApiErrors') },
  };
}

function problem(code: ErrorCode, params: Record<string, string | number> = {}, extra: JsonSchema = {}): JsonSchema {
  const error = HttpError.of(code, params);
  return { type: 'about:blank', title: STATUS_CODES[error.status], status: error.status, detail: error.message, code: error.code, ...extra };
}

const response = (description: string, example: JsonSchema, schema = 'Error', headers?: JsonSchema): JsonSchema => ({
  description,
  ...(headers ? { headers } : {}),
  content: errorContent(schema, example),
});

/** The error responses operations refer to (`#/components/responses/<status>`), one per status. */
export const ERROR_RESPONSES: Readonly<Record<string, JsonSchema>> = {
  BadRequest: response(
    'Bad request: an invalid filter or pagination value, or a body that is not a document of the expected kind.',
    problem('invalid_filter', { value: 'soon', parameter: 'publicationDate[after]', expected: 'a date such as 2024-01-31' }),
  ),
  // RFC 9110 §15.5.2: a 401 always carries a challenge.
  Unauthorized: response('Authentication is required, or the credentials are invalid.', problem('authentication_required'), 'Error', {
    'WWW-Authenticate': { description: 'The challenge (RFC 9110 §11.6.1): Bearer, ApiKey or Basic.', schema: { type: 'string' } },
  }),
  Forbidden: response('Access denied by the operation\'s security rule, or a JSON:API creation choosing its own id.', problem('access_denied', { message: 'Only the author of a review may edit it.' })),
  NotFound: response('No item with this identifier, or an unknown format extension.', problem('item_not_found', { iri: '/books/0' })),
  NotAcceptable: response(
    'None of the Accept header\'s media types can be produced (RFC 9110 §15.5.7).',
    problem('not_acceptable', { accept: 'text/plain', supported: '"application/ld+json", "application/json", "application/hal+json", "application/vnd.api+json"' }),
  ),
  Conflict: response('Other resources still reference this item (DELETE), or a JSON:API resource object names another type or id than the endpoint\'s (writes).', problem('resource_conflict', { iri: '/authors/1' })),
  PreconditionFailed: response('The If-Match header names no current representation (RFC 9110 §13.1.1).', problem('precondition_failed', { iri: '/books/1' })),
  PayloadTooLarge: response('The request body exceeds the size limit.', problem('body_too_large', { limit: 1_048_576 })),
  UnsupportedMediaType: response(
    'The Content-Type is not one this operation reads.',
    problem('unsupported_media_type', { contentType: 'text/plain', supported: '"application/ld+json", "application/json", "application/merge-patch+json"' }),
  ),
  UnprocessableEntity: response(
    'The body is well-formed but invalid: every violation is listed.',
    problem('validation_failed', { detail: 'title: This value should not be blank.' }, { violations: [{ propertyPath: 'title', message: 'This value should not be blank.', code: 'required' }] }),
    'ConstraintViolationList',
  ),
};

/** Status → component name. */
export const ERROR_RESPONSE_NAMES: Readonly<Record<number, string>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  406: 'NotAcceptable',
  409: 'Conflict',
  412: 'PreconditionFailed',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'UnprocessableEntity',
};

export const errorRef = (status: number): JsonSchema => ({ $ref: `#/components/responses/${ERROR_RESPONSE_NAMES[status]}` });
