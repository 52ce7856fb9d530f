import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HttpError } from './http-error.ts';

test('the seed contract messages, to the letter', () => {
  assert.equal(HttpError.of('route_not_found', { method: 'GET', path: '/robots.txt' }).message, 'No route found for "GET /robots.txt"');
  assert.equal(
    HttpError.of('route_not_found', { method: 'GET', path: '/robots.txt', referer: 'http://a.test/' }).message,
    'No route found for "GET /robots.txt" (from "http://a.test/")',
  );
  assert.equal(HttpError.of('routing_resource_not_found', { path: '/robots.txt' }).message, 'No routes found for "/robots.txt".');
  assert.equal(
    HttpError.of('method_not_allowed', { method: 'DELETE', path: '/some/path', allow: 'GET, HEAD' }).message,
    'No route found for "DELETE /some/path": Method Not Allowed (Allow: GET, HEAD)',
  );
  assert.equal(HttpError.of('invalid_host', { host: 'exa mple.com' }).message, 'Invalid Host "exa mple.com".');
  assert.equal(HttpError.of('untrusted_host', { host: 'evil.test' }).message, 'Untrusted Host "evil.test".');
});

test('the EXPLAIN refusals, to the letter', () => {
  assert.equal(HttpError.of('profiler_explain_forbidden', {}).message, 'EXPLAIN refused: this link was not signed by this profiler.');
  assert.equal(HttpError.of('profiler_explain_forbidden', {}).status, 403);
  assert.equal(HttpError.of('profiler_explain_refused', { query: 3, token: 'abc123', reason: 'only a SELECT is explained' }).message, 'EXPLAIN refused for query #3 of profile "abc123": only a SELECT is explained.');
  assert.equal(HttpError.of('profiler_explain_refused', { query: 3, token: 'abc123', reason: 'x' }).status, 400);
});

test('each code has its status and exception class', () => {
  const e = HttpError.of('method_not_allowed', { method: 'PUT', path: '/', allow: 'GET' }, { headers: { allow: 'GET' } });
  assert.equal(e.status, 405);
  assert.equal(e.className, 'MethodNotAllowedHttpException');
  assert.equal(e.title, 'Method Not Allowed');
  assert.deepEqual(e.headers, { allow: 'GET' });
  assert.equal(HttpError.of('route_not_found', { method: 'GET', path: '/' }).status, 404);
  assert.equal(HttpError.of('invalid_host', { host: '' }).status, 400);
  assert.equal(HttpError.of('body_too_large', { limit: 1 }).status, 413);
  assert.equal(HttpError.of('unsupported_content_encoding', { encoding: 'gzip' }).status, 415);
  assert.equal(HttpError.of('unsupported_content_encoding', { encoding: 'gzip' }).message, 'The content-coding "gzip" is not supported: send the request body without a Content-Encoding.');
  assert.equal(HttpError.of('not_acceptable', { accept: 'x', supported: 'y' }).status, 406);
});

test('the profiler tools\' messages, to the letter', () => {
  assert.equal(HttpError.of('profiler_panel_not_found', { token: 'abc123', panel: 'nope', panels: 'request, db' }).message, 'Profile abc123 has no panel "nope"; it has: request, db.');
  assert.equal(HttpError.of('profiler_panel_not_found', { token: 'abc123', panel: 'x', panels: '' }).status, 404);
  assert.equal(HttpError.of('profiler_mcp_origin', {}).message, "The profiler's MCP server does not answer web pages: a request with an Origin header is refused.");
  assert.equal(HttpError.of('profiler_mcp_origin', {}).status, 403);
});

test('the JSON:API media type refusals, to the letter', () => {
  const type = 'application/vnd.api+json; charset=utf-8';
  assert.equal(HttpError.of('jsonapi_content_type_parameter', { contentType: type, parameter: 'charset' }).message, 'The content-type "application/vnd.api+json; charset=utf-8" is not supported: the JSON:API media type may carry only the "ext" and "profile" parameters, not "charset".');
  assert.equal(HttpError.of('jsonapi_content_type_parameter', { contentType: type, parameter: 'charset' }).status, 415);
  assert.equal(HttpError.of('jsonapi_content_type_extension', { contentType: 'x', ext: 'https://jsonapi.org/ext/atomic' }).message, 'The content-type "x" is not supported: this server supports no JSON:API extension (ext="https://jsonapi.org/ext/atomic").');
  assert.equal(HttpError.of('jsonapi_content_type_extension', { contentType: 'x', ext: 'e' }).status, 415);
  assert.equal(HttpError.of('jsonapi_accept_parameter', { accept: 'a', parameter: 'version' }).message, 'Requested format "a" is not supported: every JSON:API media type in it carries a parameter other than "ext" and "profile" ("version").');
  assert.equal(HttpError.of('jsonapi_accept_parameter', { accept: 'a', parameter: 'v' }).status, 406);
  assert.equal(HttpError.of('jsonapi_accept_extension', { accept: 'a', ext: 'e' }).message, 'Requested format "a" is not supported: every JSON:API media type in it asks for an extension, and this server supports none (ext="e").');
  assert.equal(HttpError.of('jsonapi_accept_extension', { accept: 'a', ext: 'e' }).status, 406);
});

test('the JSON:API write conflicts, to the letter', () => {
  assert.equal(HttpError.of('jsonapi_type_conflict', { type: 'Book', expected: 'Review' }).message, 'The resource object\'s type "Book" does not match the endpoint\'s type "Review".');
  assert.equal(HttpError.of('jsonapi_type_conflict', { type: 'Book', expected: 'Review' }).status, 409);
  assert.equal(HttpError.of('jsonapi_id_conflict', { id: '1', expected: '2' }).message, 'The resource object\'s id "1" does not match the endpoint\'s id "2".');
  assert.equal(HttpError.of('jsonapi_id_conflict', { id: '1', expected: '2' }).status, 409);
  assert.equal(HttpError.of('jsonapi_client_id', { id: '9' }).message, 'Client-generated ids are not supported: leave "id" ("9") out of the resource object.');
  assert.equal(HttpError.of('jsonapi_client_id', { id: '9' }).status, 403);
});

test('the answers to bytes the HTTP parser refused, to the letter', () => {
  assert.equal(HttpError.of('request_timeout').message, 'The request was not received in time.');
  assert.equal(HttpError.of('request_timeout').status, 408);
  assert.equal(HttpError.of('unknown_method', { method: 'get' }).status, 400);
  assert.equal(HttpError.of('request_target_too_long', { limit: 16384 }).message, 'The request target is longer than the 16384 bytes the server reads.');
  assert.equal(HttpError.of('request_headers_too_large', { limit: 16384 }).status, 431);
});

test('a one-value query parameter given twice, to the letter', () => {
  assert.equal(HttpError.of('repeated_query_parameter', { parameter: 'page', count: 2 }).message, 'The query parameter "page" takes one value; it was given 2 different ones.');
});

test('the protocol refusals Node used to answer with an empty body, to the letter', () => {
  assert.equal(HttpError.of('missing_host').message, 'The request names no host (its Host header is missing or empty); an HTTP/1.1 request must (RFC 9112 §3.2).');
  assert.equal(HttpError.of('missing_host').status, 400);
  assert.equal(HttpError.of('expectation_failed', { expect: 'garbage' }).message, 'The expectation "garbage" cannot be met: this server knows only "100-continue" (RFC 9110 §10.1.1).');
  assert.equal(HttpError.of('expectation_failed', { expect: 'garbage' }).status, 417);
  assert.equal(HttpError.of('connect_not_supported').message, 'CONNECT is not supported: this server is not a proxy (RFC 9110 §9.3.6).');
  assert.equal(HttpError.of('connect_not_supported').status, 400);
  assert.equal(HttpError.of('invalid_request_target', { target: '*books' }).message, 'The request target "*books" is neither a path nor an absolute URI; "*" is for OPTIONS alone (RFC 9112 §3.2).');
  assert.equal(HttpError.of('invalid_request_target', { target: '*books' }).status, 400);
});
