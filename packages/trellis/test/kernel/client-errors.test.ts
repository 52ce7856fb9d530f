/**
 * What Node's HTTP parser refuses before a request exists is answered like every other error:
 * problem+json with the error table's code and exact message, the security headers, and the
 * status the RFCs name (400 for an unknown method: bad input is never a 5xx here; 414 for a long target, 431 for large headers),
 * where Fastify's default said `{"error":"Bad Request","message":"Client Error"}`.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { once } from 'node:events';

const warnings: Error[] = [];
process.on('warning', (w) => warnings.push(w));
import { maxHeaderSize } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../src/index.ts';
import { testConfig } from '../../src/testing/index.ts';

/** Sends raw bytes and reads until the server closes (bounded at 5 s). */
function raw(port: number, bytes: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    let answer = '';
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => resolve((answer = Buffer.concat(chunks).toString('utf8'))));
    socket.on('error', reject);
    setTimeout(() => (socket.destroy(), reject(new Error(`no close within 5 s; got ${JSON.stringify(answer.slice(0, 200))}`))), 5000).unref();
  });
}

function parse(answer: string): { status: number; headers: Record<string, string>; body: Record<string, unknown> } {
  const [head, body] = [answer.slice(0, answer.indexOf('\r\n\r\n')), answer.slice(answer.indexOf('\r\n\r\n') + 4)];
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body) as Record<string, unknown> };
}

for (const mode of ['production', 'debug'] as const) {
  describe(`parser errors, ${mode}`, () => {
    let app: FastifyInstance;
    let port: number;
    before(async () => {
      app = await createApp({ config: testConfig(mode === 'production' ? { NODE_ENV: 'production', PROFILER: '0' } : {}), tls: null });
      app.get('/hello', async () => ({ hello: 'world' }));
      app.post('/echo', async (request) => request.body);
      // Answers after a while: bytes sent meanwhile find a response in flight.
      app.get('/slow', async () => {
        await new Promise((r) => setTimeout(r, 300));
        return { slow: true };
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      port = (app.server.address() as { port: number }).port;
    });
    after(() => app.close());

    const cases: [string, string | Buffer, number, string, string][] = [
      ['a lower-case method', 'get /hello HTTP/1.1\r\nHost: a.test\r\n\r\n', 400, 'unknown_method', 'The method "get" is not one this server knows (methods are case-sensitive: GET, not get).'],
      ['an unknown method', 'X-PROBE /hello HTTP/1.1\r\nHost: a.test\r\n\r\n', 400, 'unknown_method', 'The method "X-PROBE" is not one this server knows (methods are case-sensitive: GET, not get).'],
      ['a target longer than the header limit', `GET /hello?q=${'a'.repeat(maxHeaderSize + 100)} HTTP/1.1\r\nHost: a.test\r\n\r\n`, 414, 'request_target_too_long', `The request target is longer than the ${maxHeaderSize} bytes the server reads.`],
      ['header fields over the limit', `GET /hello HTTP/1.1\r\nHost: a.test\r\nX-Big: ${'b'.repeat(maxHeaderSize + 100)}\r\n\r\n`, 431, 'request_headers_too_large', `The request header fields are larger than the ${maxHeaderSize} bytes the server reads.`],
      ['a Content-Length that is no number', 'POST /hello HTTP/1.1\r\nHost: a.test\r\nContent-Length: abc\r\n\r\n', 400, 'invalid_content_length', 'The Content-Length header is not a valid length (RFC 9110 §8.6).'],
      ['a bad chunk size', 'POST /echo HTTP/1.1\r\nHost: a.test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 400, 'malformed_chunked_body', 'The chunked request body is malformed (RFC 9112 §7.1).'],
      ['a TLS handshake sent to the plain port', Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]), 400, 'malformed_request', 'The request is not valid HTTP/1.1 (RFC 9112).'],
    ];
    for (const [name, bytes, status, code, detail] of cases) {
      test(`${name}: ${status} ${code}, problem+json with nosniff, then the connection closes`, async () => {
        const r = parse(await raw(port, bytes));
        assert.equal(r.status, status);
        assert.equal(r.headers['content-type'], 'application/problem+json');
        assert.equal(r.headers['x-content-type-options'], 'nosniff');
        assert.equal(r.headers.connection, 'close');
        assert.deepEqual(r.body, { type: 'about:blank', title: r.body.title, status, detail, code });
      });
    }

    // Requests Node's server answered itself with an empty body, or with none at all.
    const refusals: [string, string, number, string, string][] = [
      ['an Expect other than 100-continue', 'POST /echo HTTP/1.1\r\nHost: a.test\r\nExpect: garbage\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}', 417, 'expectation_failed', 'The expectation "garbage" cannot be met: this server knows only "100-continue" (RFC 9110 §10.1.1).'],
      ['an HTTP/1.1 request without Host', 'GET /hello HTTP/1.1\r\nConnection: close\r\n\r\n', 400, 'missing_host', 'The request names no host (its Host header is missing or empty); an HTTP/1.1 request must (RFC 9112 §3.2).'],
      ['an empty Host', 'GET /hello HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n', 400, 'missing_host', 'The request names no host (its Host header is missing or empty); an HTTP/1.1 request must (RFC 9112 §3.2).'],
      ['CONNECT', 'CONNECT a.test:443 HTTP/1.1\r\nHost: a.test:443\r\n\r\n', 400, 'connect_not_supported', 'CONNECT is not supported: this server is not a proxy (RFC 9110 §9.3.6).'],
      ['a target in asterisk-form for GET', 'GET *hello HTTP/1.1\r\nHost: a.test\r\nConnection: close\r\n\r\n', 400, 'invalid_request_target', 'The request target "*hello" is neither a path nor an absolute URI; "*" is for OPTIONS alone (RFC 9112 §3.2).'],
    ];
    for (const [name, bytes, status, code, detail] of refusals) {
      test(`${name}: ${status} ${code} in problem+json with nosniff`, async () => {
        const r = parse(await raw(port, bytes));
        assert.equal(r.status, status);
        assert.equal(r.headers['content-type']?.split(';')[0], 'application/problem+json');
        assert.equal(r.headers['x-content-type-options'], 'nosniff');
        assert.equal(r.body.detail, detail);
        assert.equal(r.body.code, code);
      });
    }

    test('a malformed HEAD request: the 400 head alone, no body after it (RFC 9110 §9.3.2); a GET of the same gets the body', async () => {
      const target = Buffer.from('/é-not-encoded', 'utf8');
      const request = (method: string) => Buffer.concat([Buffer.from(`${method} `), target, Buffer.from(' HTTP/1.1\r\nHost: a.test\r\n\r\n')]);
      const head = await raw(port, request('HEAD'));
      const detail = 'The request is not valid HTTP/1.1 (RFC 9112).';
      const body = JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail, code: 'malformed_request' });
      assert.match(head, /^HTTP\/1\.1 400 Bad Request\r\n/);
      assert.ok(head.endsWith('\r\n\r\n'), `nothing after the head: ${JSON.stringify(head.slice(-60))}`);
      assert.match(head, new RegExp(`\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`));
      const get = parse(await raw(port, request('GET')));
      assert.equal(get.status, 400);
      assert.equal(JSON.stringify(get.body), body);
    });

    test('an absolute-form target does not excuse a missing Host field (RFC 9112 §3.2)', async () => {
      const r = parse(await raw(port, 'GET http://a.test/hello HTTP/1.1\r\nConnection: close\r\n\r\n'));
      assert.equal(r.status, 400);
      assert.equal(r.body.code, 'missing_host');
    });

    test('OPTIONS * asks about the server: 204 with the methods it may answer', async () => {
      const answer = await raw(port, 'OPTIONS * HTTP/1.1\r\nHost: a.test\r\nConnection: close\r\n\r\n');
      assert.match(answer, /^HTTP\/1\.1 204 /);
      assert.match(answer, /\r\nallow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n/i);
    });

    test('a long target with large headers after it is still the target\'s 414', async () => {
      const r = parse(await raw(port, `GET /${'a'.repeat(9000)} HTTP/1.1\r\nHost: a.test\r\nX-Big: ${'b'.repeat(8000)}\r\n\r\n`));
      assert.equal(r.status, 414);
    });

    test('bytes after the bad ones are not answered again: one 400, no listener piles up on the response in flight', async () => {
      const socket = connect(port, '127.0.0.1');
      await once(socket, 'connect');
      let answer = '';
      socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
      socket.write('GET /slow HTTP/1.1\r\nHost: a.test\r\n\r\nGEX / HTTP/1.1\r\n\r\n');
      // Each chunk, apart in time, is reported as one more parse error while /slow is in flight.
      for (let i = 0; i < 30; i++) {
        await new Promise((r) => setTimeout(r, 5));
        if (!socket.destroyed) socket.write('x');
      }
      await once(socket, 'close');
      assert.ok(answer.startsWith('HTTP/1.1 200 '), answer.slice(0, 60));
      assert.equal(answer.split('HTTP/1.1 400 ').length, 2, answer);
      assert.equal(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').length, 0);
    });

    test('an HTTP/1.0 request may leave Host out', async () => {
      const answer = await raw(port, 'GET /hello HTTP/1.0\r\n\r\n');
      assert.match(answer, /^HTTP\/1\.1 200 /);
      assert.ok(answer.endsWith('{"hello":"world"}'));
    });

    test('a good request pipelined before bad bytes gets its answer first, then the 400 names the bad one', async () => {
      const answer = await raw(port, 'GET /hello HTTP/1.1\r\nHost: a.test\r\n\r\nGEX /hello HTTP/1.1\r\nHost: a.test\r\n\r\n');
      const second = answer.indexOf('HTTP/1.1 400');
      assert.ok(answer.startsWith('HTTP/1.1 200 '), answer.slice(0, 80));
      assert.ok(answer.slice(0, second).endsWith('{"hello":"world"}'));
      const r = parse(answer.slice(second));
      assert.equal(r.body.code, 'unknown_method');
      assert.equal(r.body.detail, 'The method "GEX" is not one this server knows (methods are case-sensitive: GET, not get).');
    });

    test('two good requests and bad bytes in one write: both answers, in order, then the 400', async () => {
      const good = 'GET /hello HTTP/1.1\r\nHost: a.test\r\n\r\n';
      const answer = await raw(port, `${good}${good}xyz\r\n\r\n`);
      assert.equal(answer.split('{"hello":"world"}').length, 3);
      const r = parse(answer.slice(answer.indexOf('HTTP/1.1 400')));
      assert.equal(r.body.code, 'malformed_request');
    });

    test('the server still answers afterwards', async () => {
      const r = await app.inject({ url: '/hello' });
      assert.equal(r.statusCode, 200);
    });
  });
}
