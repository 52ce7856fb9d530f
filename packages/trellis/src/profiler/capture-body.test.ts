import { test } from 'node:test';
import assert from 'node:assert/strict';
import { capturedResponse } from './capture-body.ts';

const text = 'héllo wörld'; // 11 characters, 13 bytes of UTF-8

test('a text body is as long as the Content-Length Fastify set for it', () => {
  assert.equal(capturedResponse(200, { 'content-length': '13' }, text, 4096).size, 13);
  // The header is taken as sent, not counted again (here one byte more than the text has).
  assert.equal(capturedResponse(200, { 'content-length': '14' }, text, 4096).size, 14);
});

test('without a Content-Length it can stand by, the bytes of a text body are counted', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['no header', {}, 'GET'],
    ['a HEAD, whose header may describe the GET body', { 'content-length': '500' }, 'HEAD'],
    ['fewer bytes than the text has characters', { 'content-length': '10' }, 'GET'],
    ['more than three bytes a character', { 'content-length': '34' }, 'GET'],
    ['not a number', { 'content-length': '13abc' }, 'GET'],
    ['negative', { 'content-length': '-13' }, 'GET'],
    ['a number, not the string Fastify writes', { 'content-length': 13.5 }, 'GET'],
    // With trailers Fastify keeps a Content-Length the app set (found by an outside review: 12 for a 10-byte body).
    ['trailers announced', { 'content-length': '14', trailer: 'x-t', 'transfer-encoding': 'chunked' }, 'GET'],
    ['chunked', { 'content-length': '14', 'transfer-encoding': 'chunked' }, 'GET'],
  ];
  for (const [name, headers, method] of cases) assert.equal(capturedResponse(200, headers, text, 4096, method).size, 13, name);
});

test('a byte body is as long as its bytes, whatever a header says', () => {
  assert.equal(capturedResponse(200, { 'content-length': '99', 'content-type': 'text/plain' }, Buffer.from(text), 4096).size, 13);
});

test('a stream has no size', () => {
  assert.deepEqual(capturedResponse(200, {}, null, 4096), { statusCode: 200, headers: {}, payload: null, size: 0 });
});
