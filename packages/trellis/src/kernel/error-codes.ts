/**
 * Every error the framework raises on purpose, in one table: a stable code, its HTTP status and its
 * exact message. Messages are part of the public contract (the seed specification fixes several of
 * them to the letter) and each one is asserted in `error-codes.test.ts`. Features add their own rows
 * here rather than formatting messages at the throw site.
 */
import { profilerErrorCodes } from './profiler-error-codes.ts';
import { protocolErrorCodes } from './protocol-error-codes.ts';

type Params = Record<string, string | number | undefined>;

export interface ErrorCodeDefinition {
  readonly status: number;
  /** Exception class name shown in debug chains, after Symfony's naming so the pages read alike. */
  readonly className: string;
  readonly message: (p: Params) => string;
}

const from = (p: Params): string => (p.referer ? ` (from "${p.referer}")` : '');

export const errorCodes = {
  // RFC 9110 §15.5.5: no resource at this path, for any method.
  route_not_found: {
    status: 404,
    className: 'NotFoundHttpException',
    message: (p) => `No route found for "${p.method} ${p.path}"${from(p)}`,
  },
  routing_resource_not_found: {
    status: 404,
    className: 'ResourceNotFoundException',
    message: (p) => `No routes found for "${p.path}".`,
  },
  // RFC 9110 §15.5.6: the target exists but not for this method; Allow lists what does.
  method_not_allowed: {
    status: 405,
    className: 'MethodNotAllowedHttpException',
    message: (p) => `No route found for "${p.method} ${p.path}": Method Not Allowed (Allow: ${p.allow})`,
  },
  routing_method_not_allowed: {
    status: 405,
    className: 'MethodNotAllowedException',
    message: (p) => `The "${p.method}" method is not allowed for "${p.path}"; allowed: ${p.allow}.`,
  },
  duplicate_host: {
    status: 400,
    className: 'SuspiciousOperationException',
    message: () => 'The request has more than one Host header.',
  },
  invalid_host: {
    status: 400,
    className: 'SuspiciousOperationException',
    message: (p) => `Invalid Host "${p.host}".`,
  },
  untrusted_host: {
    status: 400,
    className: 'SuspiciousOperationException',
    message: (p) => `Untrusted Host "${p.host}".`,
  },
  conflicting_forwarded_headers: {
    status: 400,
    className: 'ConflictingHeadersException',
    message: () =>
      'The request has both a trusted "Forwarded" header and a trusted "X-Forwarded-For" header, conflicting each other with different values.',
  },
  invalid_forwarded_address: {
    status: 400,
    className: 'SuspiciousOperationException',
    message: (p) => `The trusted "${p.header}" header names a client that is not an IP address: "${p.value}".`,
  },
  malformed_url: {
    status: 400,
    className: 'BadRequestHttpException',
    message: (p) => `Malformed percent-encoding in the request path "${p.path}".`,
  },
  malformed_json: {
    status: 400,
    className: 'BadRequestHttpException',
    message: (p) => `Syntax error in the JSON request body at line ${p.line}, column ${p.column}.`,
  },
  json_too_deep: {
    status: 400,
    className: 'BadRequestHttpException',
    message: (p) => `The JSON request body nests deeper than ${p.max} levels.`,
  },
  json_too_many_members: {
    status: 400,
    className: 'BadRequestHttpException',
    message: (p) => `The JSON request body has an object of more than ${p.max} members.`,
  },
  truncated_json: {
    status: 400,
    className: 'BadRequestHttpException',
    message: () => 'Syntax error in the JSON request body: unexpected end of input.',
  },
  empty_json_body: {
    status: 400,
    className: 'BadRequestHttpException',
    message: () => 'The request body is empty; a JSON document was expected.',
  },
  body_incomplete: {
    status: 400,
    className: 'BadRequestHttpException',
    message: () => 'The request body ended before its declared length.',
  },
  body_too_large: {
    status: 413,
    className: 'PayloadTooLargeHttpException',
    message: (p) => `The request body is larger than the limit of ${p.limit} bytes.`,
  },
  unsupported_media_type: {
    status: 415,
    className: 'UnsupportedMediaTypeHttpException',
    message: (p) =>
      `The content-type "${p.contentType}" is not supported. Supported MIME types are ${p.supported}.`,
  },
  // RFC 8259 §8.1: JSON exchanged between systems is UTF-8; a body declared otherwise would be misread.
  unsupported_charset: {
    status: 415,
    className: 'UnsupportedMediaTypeHttpException',
    message: (p) => `The charset "${p.charset}" is not supported: send JSON as UTF-8 (RFC 8259 §8.1).`,
  },
  // RFC 9110 §15.5.16: a content coding the server does not decode is refused, with the codings
  // it accepts in Accept-Encoding (§12.5.3); read as identity, a gzip body was parsed as garbage.
  unsupported_content_encoding: {
    status: 415,
    className: 'UnsupportedMediaTypeHttpException',
    message: (p) => `The content-coding "${p.encoding}" is not supported: send the request body without a Content-Encoding.`,
  },
  not_acceptable: {
    status: 406,
    className: 'NotAcceptableHttpException',
    message: (p) => `Requested format "${p.accept}" is not supported. Supported MIME types are ${p.supported}.`,
  },
  // JSON:API 1.1, Content Negotiation: the JSON:API media type may carry only `ext` and `profile`,
  // and an `ext` the server does not support is refused like any other parameter.
  jsonapi_content_type_parameter: {
    status: 415,
    className: 'UnsupportedMediaTypeHttpException',
    message: (p) => `The content-type "${p.contentType}" is not supported: the JSON:API media type may carry only the "ext" and "profile" parameters, not "${p.parameter}".`,
  },
  jsonapi_content_type_extension: {
    status: 415,
    className: 'UnsupportedMediaTypeHttpException',
    message: (p) => `The content-type "${p.contentType}" is not supported: this server supports no JSON:API extension (ext="${p.ext}").`,
  },
  jsonapi_accept_parameter: {
    status: 406,
    className: 'NotAcceptableHttpException',
    message: (p) => `Requested format "${p.accept}" is not supported: every JSON:API media type in it carries a parameter other than "ext" and "profile" ("${p.parameter}").`,
  },
  jsonapi_accept_extension: {
    status: 406,
    className: 'NotAcceptableHttpException',
    message: (p) => `Requested format "${p.accept}" is not supported: every JSON:API media type in it asks for an extension, and this server supports none (ext="${p.ext}").`,
  },
  // JSON:API 1.1, Creating and Updating Resources: a resource object of another type, or (on an
  // update) of another id, than the endpoint's is a 409; a client-generated id a 403.
  jsonapi_type_conflict: {
    status: 409,
    className: 'ConflictHttpException',
    message: (p) => `The resource object's type "${p.type}" does not match the endpoint's type "${p.expected}".`,
  },
  jsonapi_id_conflict: {
    status: 409,
    className: 'ConflictHttpException',
    message: (p) => `The resource object's id "${p.id}" does not match the endpoint's id "${p.expected}".`,
  },
  jsonapi_client_id: {
    status: 403,
    className: 'AccessDeniedHttpException',
    message: (p) => `Client-generated ids are not supported: leave "id" ("${p.id}") out of the resource object.`,
  },
  // security: RFC 9110 §15.5.2 (401 carries WWW-Authenticate) and §15.5.4 (403).
  authentication_required: {
    status: 401,
    className: 'InsufficientAuthenticationException',
    message: () => 'Full authentication is required to access this resource.',
  },
  invalid_credentials: {
    status: 401,
    className: 'BadCredentialsException',
    message: () => 'Invalid credentials.',
  },
  too_many_login_attempts: {
    status: 429,
    className: 'TooManyLoginAttemptsAuthenticationException',
    message: (p) => `Too many login attempts, please try again in ${p.minutes} ${Number(p.minutes) === 1 ? 'minute' : 'minutes'}.`,
  },
  database_unavailable: {
    status: 503,
    className: 'ServiceUnavailableHttpException',
    message: () => 'The database is unavailable; please try again shortly.',
  },
  database_rejected_value: {
    status: 422,
    className: 'UnprocessableEntityHttpException',
    message: (p) => `The database cannot hold a value of this request: ${p.reason}.`,
  },
  profile_store_unavailable: {
    status: 503,
    className: 'ServiceUnavailableHttpException',
    message: (p) => `The profile store is unavailable (${p.reason}); requests are served but not recorded until it is back.`,
  },
  password_check_busy: {
    status: 503,
    className: 'ServiceUnavailableHttpException',
    message: () => 'Too many password checks are in progress, please try again.',
  },
  malformed_basic_credentials: {
    status: 401,
    className: 'BadCredentialsException',
    message: () => 'The Basic credentials are malformed: expected base64 of "<email>:<password>".',
  },
  invalid_api_key: {
    status: 401,
    className: 'BadCredentialsException',
    message: () => 'Invalid API key.',
  },
  jwt_malformed: {
    status: 401,
    className: 'InvalidTokenException',
    message: () => 'The bearer token is malformed: expected a JWT of three base64url segments.',
  },
  jwt_too_large: {
    status: 401,
    className: 'InvalidTokenException',
    message: (p) => `The bearer token is larger than the limit of ${p.limit} bytes.`,
  },
  jwt_algorithm_not_allowed: {
    status: 401,
    className: 'InvalidTokenException',
    message: (p) => `The bearer token is signed with algorithm "${p.alg}", which is not accepted; expected "${p.expected}".`,
  },
  jwt_bad_signature: {
    status: 401,
    className: 'InvalidTokenException',
    message: () => 'The bearer token signature is invalid.',
  },
  jwt_expired: {
    status: 401,
    className: 'ExpiredTokenException',
    message: () => 'The bearer token has expired.',
  },
  jwt_not_yet_valid: {
    status: 401,
    className: 'InvalidTokenException',
    message: () => 'The bearer token is not valid yet.',
  },
  jwt_claim_invalid: {
    status: 401,
    className: 'InvalidTokenException',
    message: (p) => `The bearer token claim "${p.claim}" is missing or invalid.`,
  },
  jwt_user_not_found: {
    status: 401,
    className: 'UserNotFoundException',
    message: () => 'The user of the bearer token does not exist.',
  },
  login_body_invalid: {
    status: 400,
    className: 'BadRequestHttpException',
    message: () => 'The login request body must be a JSON object with string members "email" and "password".',
  },
  access_denied: {
    status: 403,
    className: 'AccessDeniedHttpException',
    message: (p) => String(p.message ?? 'Access Denied.'),
  },
  // resources (issue 5): RFC 9110 §15.5.5, an identifier that names no stored item.
  item_not_found: {
    status: 404,
    className: 'NotFoundHttpException',
    message: (p) => `Item not found for "${p.iri}".`,
  },
  unknown_format_extension: {
    status: 404,
    className: 'NotFoundHttpException',
    message: (p) => `Format "${p.format}" is not supported.`,
  },
  // RFC 9110 §15.5.21: the body is well-formed but its content cannot be used.
  validation_failed: {
    status: 422,
    className: 'UnprocessableEntityHttpException',
    message: (p) => String(p.detail),
  },
  // A parameter that takes one value (page, itemsPerPage, partial), given several different ones.
  repeated_query_parameter: {
    status: 400,
    className: 'BadRequestHttpException',
    message: (p) => `The query parameter "${p.parameter}" takes one value; it was given ${p.count} different ones.`,
  },
  too_many_filter_values: {
    status: 400,
    className: 'BadRequestHttpException',
    message: (p) => `The query parameter "${p.parameter}" takes at most ${p.max} values; ${p.count} were given.`,
  },
  too_many_query_values: {
    status: 400,
    className: 'BadRequestHttpException',
    message: (p) => `The query string carries at most ${p.max} values; ${p.count} were given.`,
  },
  invalid_filter: {
    status: 400,
    className: 'BadRequestHttpException',
    message: (p) => `Invalid value "${p.value}" for the query parameter "${p.parameter}": ${p.expected}.`,
  },
  invalid_body: {
    status: 400,
    className: 'BadRequestHttpException',
    message: (p) => `The request body must be ${p.expected}.`,
  },
  // RFC 9110 §13.1.1: If-Match names no current representation.
  precondition_failed: {
    status: 412,
    className: 'PreconditionFailedHttpException',
    message: (p) => `The "If-Match" precondition failed: "${p.iri}" has changed since it was read.`,
  },
  // RFC 9110 §13.1.2: a false If-None-Match refuses any method but GET and HEAD (those get a 304).
  precondition_none_match_failed: {
    status: 412,
    className: 'PreconditionFailedHttpException',
    message: (p) => `The "If-None-Match" precondition failed: "${p.iri}" has a current representation it names.`,
  },
  // RFC 9110 §15.5.10: the write conflicts with the current state (e.g. still referenced).
  resource_conflict: {
    status: 409,
    className: 'ConflictHttpException',
    message: (p) => `"${p.iri}" cannot be deleted: other resources still reference it.`,
  },
  // The profiler's pages, CLI and MCP server (profiler-error-codes.ts).
  ...profilerErrorCodes,
  // What Node's HTTP server refuses before a route exists (protocol-error-codes.ts).
  ...protocolErrorCodes,
  bad_request: {
    status: 400,
    className: 'BadRequestHttpException',
    message: (p) => String(p.detail),
  },
  internal_error: {
    status: 500,
    className: 'Error',
    message: (p) => String(p.detail ?? 'Internal Server Error'),
  },
} satisfies Record<string, ErrorCodeDefinition>;

export type ErrorCode = keyof typeof errorCodes;
