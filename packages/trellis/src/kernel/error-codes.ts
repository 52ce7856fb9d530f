/**
 * Every error the framework raises on purpose, in one table: a stable code, its HTTP status and its
 * exact message. Messages are part of the public contract (the seed specification fixes several of
 * them to the letter) and each one is asserted in `error-codes.test.ts`. Features add their own rows
 * here rather than formatting messages at the throw site.
 */
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
  malformed_url: {
    status: 400,
    className: 'BadRequestHttpException',
    message: (p) => `Malformed percent-encoding in the request path "${p.path}".`,
  },
  malformed_json: {
    status: 400,
    className: 'BadRequestHttpException',
    message: (p) => `Syntax error in the JSON request body: ${p.detail}`,
  },
  empty_json_body: {
    status: 400,
    className: 'BadRequestHttpException',
    message: () => 'The request body is empty; a JSON document was expected.',
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
  not_acceptable: {
    status: 406,
    className: 'NotAcceptableHttpException',
    message: (p) => `Requested format "${p.accept}" is not supported. Supported MIME types are ${p.supported}.`,
  },
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
