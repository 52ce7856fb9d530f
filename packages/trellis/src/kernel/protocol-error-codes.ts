import type { ErrorCodeDefinition } from './error-codes.ts';

/**
 * The protocol's rows of the error table (error-codes.ts, which spreads them in): what Node's HTTP
 * server refuses before any route or hook runs (client-error-handler.ts, protocol-refusals.ts),
 * and the request-line checks of the guard. Answered in problem+json like every other error.
 */
export const protocolErrorCodes = {
  // Bytes Node's HTTP parser refused before any request existed (client-error-handler.ts).
  malformed_request: {
    status: 400,
    className: 'BadRequestHttpException',
    message: () => 'The request is not valid HTTP/1.1 (RFC 9112).',
  },
  invalid_content_length: {
    status: 400,
    className: 'BadRequestHttpException',
    message: () => 'The Content-Length header is not a valid length (RFC 9110 §8.6).',
  },
  malformed_chunked_body: {
    status: 400,
    className: 'BadRequestHttpException',
    message: () => 'The chunked request body is malformed (RFC 9112 §7.1).',
  },
  // RFC 9110 §9.1: methods are case-sensitive tokens. §15.6.2 suggests 501 for one the server
  // does not know, but the method is the client's mistake and a 5xx counts against the server in
  // every dashboard (scanners send them by the thousand): bad input is a 4xx here, always.
  unknown_method: {
    status: 400,
    className: 'BadRequestHttpException',
    message: (p) => `The method "${p.method}" is not one this server knows (methods are case-sensitive: GET, not get).`,
  },
  // RFC 9110 §15.5.15: the request-target is longer than the server reads.
  request_target_too_long: {
    status: 414,
    className: 'HttpException',
    message: (p) => `The request target is longer than the ${p.limit} bytes the server reads.`,
  },
  // RFC 6585 §5.
  request_headers_too_large: {
    status: 431,
    className: 'HttpException',
    message: (p) => `The request header fields are larger than the ${p.limit} bytes the server reads.`,
  },
  // RFC 6585 §4: one connection pipelined more requests than are answered at once (protocol-refusals.ts).
  too_many_pipelined_requests: {
    status: 429,
    className: 'TooManyRequestsHttpException',
    message: (p) => `Too many requests pipelined on one connection: at most ${p.max} are answered at a time; read the answers before sending more.`,
  },
  // RFC 9110 §15.5.9: REQUEST_TIMEOUT passed before the request was whole.
  request_timeout: {
    status: 408,
    className: 'HttpException',
    message: () => 'The request was not received in time.',
  },
  // RFC 9112 §3.2: an HTTP/1.1 request without a Host (or with an empty one) is a 400.
  missing_host: {
    status: 400,
    className: 'BadRequestHttpException',
    message: () => 'The request names no host (its Host header is missing or empty); an HTTP/1.1 request must (RFC 9112 §3.2).',
  },
  // RFC 9110 §10.1.1: an expectation other than 100-continue cannot be met.
  expectation_failed: {
    status: 417,
    className: 'HttpException',
    message: (p) => `The expectation "${p.expect}" cannot be met: this server knows only "100-continue" (RFC 9110 §10.1.1).`,
  },
  // RFC 9110 §9.3.6: CONNECT asks for a tunnel, which only a proxy opens.
  connect_not_supported: {
    status: 400,
    className: 'BadRequestHttpException',
    message: () => 'CONNECT is not supported: this server is not a proxy (RFC 9110 §9.3.6).',
  },
  // RFC 9112 §3.2: a target is a path (origin-form) or an absolute URI; "*" is a server-wide OPTIONS's.
  invalid_request_target: {
    status: 400,
    className: 'BadRequestHttpException',
    message: (p) => `The request target "${p.target}" is neither a path nor an absolute URI; "*" is for OPTIONS alone (RFC 9112 §3.2).`,
  },
} satisfies Record<string, ErrorCodeDefinition>;
