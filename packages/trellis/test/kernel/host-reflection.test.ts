/**
 * Absolute URLs in headers are built only from a Host that passed validation (issue 13, defect 4).
 * Raw sockets: the client's exact bytes matter (a Host no HTTP client would send, two of them,
 * HTTP/1.0 without one).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { profilerApp } from '../profiler/profiler-app.ts';

interface RawResponse {
  readonly status: number;
  readonly headers: Map<string, string[]>;
  readonly head: string;
  readonly body: string;
}

function raw(port: number, request: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => socket.end(request));
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (c: string) => (data += c));
    socket.on('error', reject);
    socket.on('end', () => {
      const split = data.indexOf('\r\n\r\n');
      const head = data.slice(0, split);
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = new Map<string, string[]>();
      for (const line of lines) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).toLowerCase();
        headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
      }
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, head, body: data.slice(split + 4) });
    });
  });
}

const get = (host: string, path = '/hello') => `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`;

for (const mode of ['debug', 'production'] as const) {
  describe(`Host in headers, ${mode}`, () => {
    const env: Record<string, string> = mode === 'production' ? { NODE_ENV: 'production', APP_DEBUG: '0' } : {};
    let app: FastifyInstance;
    let trusted: FastifyInstance;
    let port: number;
    let trustedPort: number;
    before(async () => {
      app = await profilerApp(env);
      trusted = await profilerApp({ ...env, TRUSTED_HOSTS: '^shop\\.test$' });
      await app.listen({ port: 0, host: '127.0.0.1' });
      await trusted.listen({ port: 0, host: '127.0.0.1' });
      port = (app.server.address() as { port: number }).port;
      trustedPort = (trusted.server.address() as { port: number }).port;
    });
    after(async () => {
      await app.close();
      await trusted.close();
    });

    test('a valid Host makes the links absolute', async () => {
      const r = await raw(port, get('shop.test:8443'));
      assert.equal(r.status, 200);
      assert.deepEqual(r.headers.get('link'), ['<http://shop.test:8443/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"']);
      if (mode === 'debug') assert.match(r.headers.get('x-debug-token-link')![0]!, /^http:\/\/shop\.test:8443\/_profiler\/[0-9a-f]{6}$/);
      else assert.equal(r.headers.has('x-debug-token-link'), false);
    });

    for (const host of ['exa<mple.com', 'exa mple.com', 'a.test/evil', 'a.test\\evil', 'a"b.test', 'ex%61mple.com', 'a.test@evil.example', 'a.test#x', '<script>', 'a.test?x=1', 'localhost:abc', '127.0.0.1:99999', 'a..b', '.a.test', 'a.test:', 'a.test:1:2', '[::1', '[::1]x']) {
      test(`an invalid Host (${JSON.stringify(host)}) is a 400 and reflected in no header`, async () => {
        const r = await raw(port, get(host));
        assert.equal(r.status, 400);
        assert.equal(r.head.includes(host), false, r.head);
        assert.deepEqual(r.headers.get('link'), ['</docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"']);
        if (mode === 'debug') assert.match(r.headers.get('x-debug-token-link')![0]!, /^\/_profiler\/[0-9a-f]{6}$/);
        assert.equal(JSON.parse(r.body).detail, `Invalid Host "${host}".`);
      });
    }

    test('an untrusted Host (TRUSTED_HOSTS set) is a 400 and reflected in no header', async () => {
      const r = await raw(trustedPort, get('evil.example'));
      assert.equal(r.status, 400);
      assert.equal(JSON.parse(r.body).detail, 'Untrusted Host "evil.example".');
      assert.equal(r.head.includes('evil.example'), false, r.head);
      assert.deepEqual(r.headers.get('link'), ['</docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"']);
      const ok = await raw(trustedPort, get('shop.test'));
      assert.equal(ok.status, 200);
      assert.deepEqual(ok.headers.get('link'), ['<http://shop.test/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"']);
    });

    test('two Host headers are a 400 (RFC 9112 §3.2), whether they agree or not', async () => {
      for (const second of ['evil.example', 'shop.test']) {
        const r = await raw(port, `GET /hello HTTP/1.1\r\nHost: shop.test\r\nhost: ${second}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`);
        assert.equal(r.status, 400);
        assert.equal(JSON.parse(r.body).detail, 'The request has more than one Host header.');
        assert.equal(JSON.parse(r.body).code, 'duplicate_host');
        assert.equal(r.head.includes('evil.example') || r.head.includes('shop.test'), false, r.head);
      }
    });

    test('HTTP/1.0 without Host: links name the server\'s own address, never http:///', async () => {
      const r = await raw(port, 'GET /hello HTTP/1.0\r\nAccept: application/json\r\n\r\n');
      assert.equal(r.status, 200);
      assert.deepEqual(r.headers.get('link'), [`<http://127.0.0.1:${port}/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`]);
      if (mode === 'debug') assert.match(r.headers.get('x-debug-token-link')![0]!, new RegExp(`^http://127\\.0\\.0\\.1:${port}/_profiler/[0-9a-f]{6}$`));
    });

    test('a request-target in absolute form names the host, not the Host field (RFC 9112 §3.2.2)', async () => {
      const r = await raw(port, get('shop.test', 'http://api.test:8080/hello'));
      assert.equal(r.status, 200, r.body);
      assert.deepEqual(r.headers.get('link'), ['<http://api.test:8080/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"']);
      // Its host is validated as a Host is, and must pass TRUSTED_HOSTS where it is set.
      assert.equal(JSON.parse((await raw(port, get('shop.test', 'HTTP://exa%61mple.com/hello'))).body).detail, 'Invalid Host "exa%61mple.com".');
      assert.equal(JSON.parse((await raw(trustedPort, get('shop.test', 'http://evil.example/hello'))).body).detail, 'Untrusted Host "evil.example".');
      assert.equal((await raw(trustedPort, get('evil.example', 'http://shop.test/hello'))).status, 200);
      // Userinfo is not the host, and is echoed in no message.
      const withUser = await raw(trustedPort, get('shop.test', 'http://user:pw-1234@evil.example/hello'));
      assert.equal(JSON.parse(withUser.body).detail, 'Untrusted Host "evil.example".');
      if (mode === 'debug') {
        // The profiler's rebinding guard judges it too: a loopback Host field does not open the
        // profiler to a target naming another host, and the reverse does.
        assert.equal((await raw(port, get(`127.0.0.1:${port}`, 'http://evil.example/_profiler/search'))).status, 404);
        assert.equal((await raw(port, get('evil.example', `http://127.0.0.1:${port}/_profiler/search`))).status, 200);
        // Its profile names the URL as the client wrote it, once.
        const token = (await raw(port, get('shop.test', 'http://api.test:8080/hello?x=1'))).headers.get('x-debug-token')![0]!;
        await app.profiler!.settled();
        assert.equal((await app.profiler!.read(token))!.url, 'http://api.test:8080/hello?x=1');
      }
    });

    test('HTTP/1.1 without Host is a 400 (RFC 9112 §3.2)', async () => {
      const r = await raw(port, 'GET /hello HTTP/1.1\r\nConnection: close\r\n\r\n');
      assert.equal(r.status, 400);
    });
  });
}
