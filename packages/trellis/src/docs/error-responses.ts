import { ref, type JsonSchema } from './json-schema.ts';

/** Every error is rendered in the negotiated error format: problem+json, its JSON label, or hydra:Error. */
function errorContent(schema: string): JsonSchema {
  return {
    'application/problem+json': { schema: ref(schema) },
    'application/json': { schema: ref(schema) },
    'application/ld+json': { schema: ref(`${schema}.jsonld`) },
  };
}

const response = (description: string, schema = 'Error', headers?: JsonSchema): JsonSchema => ({
  description,
  ...(headers ? { headers } : {}),
  content: errorContent(schema),
});

/** The error responses operations refer to (`#/components/responses/<status>`), one per status. */
export const ERROR_RESPONSES: Readonly<Record<string, JsonSchema>> = {
  BadRequest: response('Bad request: an invalid filter or pagination value, or a body that is not a document of the expected kind.'),
  // RFC 9110 §15.5.2: a 401 always carries a challenge.
  Unauthorized: response('Authentication is required, or the credentials are invalid.', 'Error', {
    'WWW-Authenticate': { description: 'The challenge (RFC 9110 §11.6.1): Bearer, ApiKey or Basic.', schema: { type: 'string' } },
  }),
  Forbidden: response('Access denied by the operation\'s security rule.'),
  NotFound: response('No item with this identifier, or an unknown format extension.'),
  NotAcceptable: response('None of the Accept header\'s media types can be produced (RFC 9110 §15.5.7).'),
  Conflict: response('Other resources still reference this item.'),
  PreconditionFailed: response('The If-Match header names no current representation (RFC 9110 §13.1.1).'),
  PayloadTooLarge: response('The request body exceeds the size limit.'),
  UnsupportedMediaType: response('The Content-Type is not one this operation reads.'),
  UnprocessableEntity: response('The body is well-formed but invalid: every violation is listed.', 'ConstraintViolationList'),
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
