import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../src/index.ts';
import { testConfig } from '../../src/testing/index.ts';

async function build(env: Record<string, string> = {}): Promise<FastifyInstance> {
  const app = await createApp({ config: testConfig({ PROFILER: '0', ...env }), tls: null });
  app.post('/echo', async (request) => ({ body: request.body as unknown }));
  app.get('/ip', async (request) => ({ ip: request.clientIp }));
  app.get('/files/:name', async (request) => ({ name: (request.params as { name: string }).name }));
  await app.ready();
  return app;
}

describe('request exceptions are 400 with the exception message (seed §7)', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await build();
  });
  after(() => app.close());

  test('a Host that is not a valid host name', async () => {
    for (const host of ['exa mple.com', 'evil.test/path', 'a@b.c', "x'y"]) {
      const res = await app.inject({ method: 'GET', url: '/', headers: { host } });
      assert.equal(res.statusCode, 400, host);
      assert.equal(res.json().detail, `Invalid Host "${host}".`);
    }
  });

  test('valid hosts pass, with ports and IPv6 literals', async () => {
    for (const host of ['example.com', 'example.com:8443', 'localhost', '127.0.0.1:8000', '[::1]:8000', 'my_host.local.', 'shop.test:65535', '[2001:db8::7]', 'xn--bcher-kva.example']) {
      assert.equal((await app.inject({ method: 'GET', url: '/', headers: { host } })).statusCode, 200, host);
    }
  });

  test('malformed JSON body', async () => {
    const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"a": ' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().detail, 'Syntax error in the JSON request body: unexpected end of input.');
    assert.equal(res.json().code, 'truncated_json');
    const bad = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"a": [nope]}' });
    assert.equal(bad.json().detail, 'Syntax error in the JSON request body at line 1, column 9.');
    assert.equal(bad.json().code, 'malformed_json');
  });

  test('empty JSON body', async () => {
    const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().detail, 'The request body is empty; a JSON document was expected.');
  });

  test('a __proto__ key is dropped, never merged into prototypes', async () => {
    const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"a":1,"__proto__":{"polluted":true}}' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { body: { a: 1 } });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test('an unsupported body media type is 415 with the exact message', async () => {
    const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/xml' }, payload: '<a/>' });
    assert.equal(res.statusCode, 415);
    assert.match(res.json().detail, /^The content-type "application\/xml" is not supported\. Supported MIME types are "application\/json"/);
  });

  test('a body over the limit is 413', async () => {
    const small = await build({ BODY_LIMIT: '1k' });
    const res = await small.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ a: 'x'.repeat(2000) }) });
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().detail, 'The request body is larger than the limit of 1024 bytes.');
    await small.close();
  });

  test('malformed percent-encoding in the path', async () => {
    const res = await app.inject({ method: 'GET', url: '/files/%E0%A4%A' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().detail, 'Malformed percent-encoding in the request path "/files/%E0%A4%A".');
  });

  test('a Host not matching TRUSTED_HOSTS', async () => {
    const trusted = await build({ TRUSTED_HOSTS: '(.+\\.)?example\\.com,localhost' });
    const evil = await trusted.inject({ method: 'GET', url: '/', headers: { host: 'evil.test' } });
    assert.equal(evil.statusCode, 400);
    assert.equal(evil.json().detail, 'Untrusted Host "evil.test".');
    // Patterns are anchored: a suffix or prefix trick does not pass.
    const tricky = await trusted.inject({ method: 'GET', url: '/', headers: { host: 'example.com.evil.test' } });
    assert.equal(tricky.json().detail, 'Untrusted Host "example.com.evil.test".');
    assert.equal((await trusted.inject({ method: 'GET', url: '/', headers: { host: 'api.example.com:8443' } })).statusCode, 200);
    assert.equal((await trusted.inject({ method: 'GET', url: '/', headers: { host: 'LOCALHOST' } })).statusCode, 200);
    await trusted.close();
  });

  test('conflicting Forwarded and X-Forwarded-For from a trusted proxy', async () => {
    const proxied = await build({ TRUSTED_PROXIES: '127.0.0.1' });
    const res = await proxied.inject({ method: 'GET', url: '/ip', headers: { forwarded: 'for=1.2.3.4', 'x-forwarded-for': '5.6.7.8' } });
    assert.equal(res.statusCode, 400);
    assert.equal(
      res.json().detail,
      'The request has both a trusted "Forwarded" header and a trusted "X-Forwarded-For" header, conflicting each other with different values.',
    );
    const same = await proxied.inject({ method: 'GET', url: '/ip', headers: { forwarded: 'for=1.2.3.4', 'x-forwarded-for': '1.2.3.4' } });
    assert.deepEqual(same.json(), { ip: '1.2.3.4' });
    const xff = await proxied.inject({ method: 'GET', url: '/ip', headers: { 'x-forwarded-for': '9.9.9.9, 127.0.0.1' } });
    assert.deepEqual(xff.json(), { ip: '9.9.9.9' });
    await proxied.close();
  });

  test('forwarding headers from an untrusted peer are ignored', async () => {
    const res = await app.inject({ method: 'GET', url: '/ip', headers: { forwarded: 'for=1.2.3.4', 'x-forwarded-for': '5.6.7.8' } });
    assert.deepEqual(res.json(), { ip: '127.0.0.1' });
  });
});

describe('Node-level parse errors never reach the app and never crash it', () => {
  let app: FastifyInstance;
  let port: number;
  before(async () => {
    app = await build();
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });
  after(() => app.close());

  function raw(request: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ port, host: '127.0.0.1' }, () => socket.end(request));
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
  }

  test('a bad request line is a plain 400', async () => {
    const res = await raw('GARBAGE\r\n\r\n');
    assert.match(res, /^HTTP\/1\.1 400 Bad Request/);
  });

  test('oversized headers are 431', async () => {
    const res = await raw(`GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.match(res, /^HTTP\/1\.1 431 Request Header Fields Too Large/);
  });

  test('the server still answers afterwards', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/`);
    assert.equal(res.status, 200);
  });
});

describe('a client that never finishes its request is cut off (no hang)', () => {
  test('a stalled body is cut off after REQUEST_TIMEOUT, and the server keeps answering', async () => {
    const app = await build({ REQUEST_TIMEOUT: '1' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as net.AddressInfo).port;
    const started = Date.now();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect({ port, host: '127.0.0.1' }, () => {
        socket.write('POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":');
      });
      let data = '';
      socket.on('data', (c) => (data += c));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
    });
    // Node answers 408 when it can; a socket silent mid-body is simply closed. Either way: no hang.
    assert.ok(answer === '' || answer.startsWith('HTTP/1.1 408 Request Timeout'), answer);
    assert.ok(Date.now() - started < 10_000, 'closed within seconds, not minutes');
    assert.equal((await fetch(`http://127.0.0.1:${port}/`)).status, 200);
    await app.close();
  });
});
