import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http2 from 'node:http2';
import https from 'node:https';
import tls from 'node:tls';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createApp, tlsCredentials } from '../../src/index.ts';
import { testConfig } from '../../src/testing/index.ts';

function h1(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string; alpn: string }> {
  return new Promise((resolve, reject) => {
    // ALPN offers only http/1.1, so the server's HTTP/1.1 fallback is what answers.
    const options = { host: '127.0.0.1', port, path, headers, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'], agent: false } as https.RequestOptions;
    const req = https.request(options, (res) => {
      const alpn = String((res.socket as unknown as { alpnProtocol: string }).alpnProtocol);
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body, alpn }));
    });
    req.on('error', reject);
    req.end();
  });
}

function h2(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http2.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const client = http2.connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
    client.on('error', reject);
    const req = client.request({ ':path': path, ...headers });
    let status = 0;
    let resHeaders: http2.IncomingHttpHeaders = {};
    let body = '';
    req.on('response', (h) => {
      status = Number(h[':status']);
      resHeaders = h;
    });
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      client.close();
      resolve({ status, headers: resHeaders, body });
    });
    req.end();
  });
}

describe('HTTPS with a self-signed certificate (HTTPS=1, debug)', () => {
  const varDir = mkdtempSync(join(tmpdir(), 'trellis-tls-'));
  let app: FastifyInstance;
  let port: number;
  before(async () => {
    app = await createApp({ config: testConfig({ HTTPS: '1', PROFILER: '0' }), varDir });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  after(async () => {
    await app.close();
    rmSync(varDir, { recursive: true, force: true });
  });

  test('the certificate is created once under var/tls and reused', async () => {
    const cert = readFileSync(join(varDir, 'tls', 'localhost.crt'), 'utf8');
    assert.match(cert, /^-----BEGIN CERTIFICATE-----/);
    assert.equal(statSync(join(varDir, 'tls', 'localhost.key')).mode & 0o777, 0o600);
    const again = await tlsCredentials(testConfig({ HTTPS: '1' }), varDir);
    assert.equal(again?.cert, cert);
  });

  test('HTTP/1.1 clients get the same error contract over TLS', async () => {
    const res = await h1(port, '/robots.txt', { accept: 'application/json' });
    assert.equal(res.alpn, 'http/1.1');
    assert.equal(res.status, 404);
    assert.equal(JSON.parse(res.body).detail, 'No route found for "GET /robots.txt"');
  });

  test('HTTP/2 clients too, including 405 with Allow and the Host check on :authority', async () => {
    const notFound = await h2(port, '/.env');
    assert.equal(notFound.status, 404);
    assert.equal(JSON.parse(notFound.body).detail, 'No route found for "GET /.env"');
    const notAllowed = await h2(port, '/', { ':method': 'DELETE' });
    assert.equal(notAllowed.status, 405);
    assert.equal(notAllowed.headers.allow, 'GET, HEAD');
    const ok = await h2(port, '/');
    assert.equal(ok.status, 200);
  });

  test('HTTP/1.1 over TLS without Host: the same problem+json 400 as in plain HTTP', async () => {
    const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] });
    await once(socket, 'secureConnect');
    let answer = '';
    socket.on('data', (c: Buffer) => (answer += c.toString('utf8')));
    socket.write('GET / HTTP/1.1\r\nConnection: close\r\n\r\n');
    await once(socket, 'close');
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.equal(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).code, 'missing_host');
  });

  test('HTTP/2 CONNECT and an unmet Expect: problem+json on the stream, no connection header (RFC 9113 §8.2.2)', async () => {
    const ask = (headers: http2.OutgoingHttpHeaders) =>
      new Promise<{ status: number; headers: http2.IncomingHttpHeaders; body: string }>((resolve, reject) => {
        const client = http2.connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
        client.on('error', reject);
        const req = client.request(headers);
        let status = 0;
        let got: http2.IncomingHttpHeaders = {};
        let body = '';
        req.on('response', (h) => ((status = Number(h[':status'])), (got = h)));
        req.on('data', (c) => (body += c));
        req.on('end', () => (client.close(), resolve({ status, headers: got, body })));
        req.on('error', reject);
        req.end();
      });
    const connect = await ask({ ':method': 'CONNECT', ':authority': 'a.test:443' });
    assert.equal(connect.status, 400);
    assert.equal(connect.headers['content-type'], 'application/problem+json');
    assert.equal(JSON.parse(connect.body).code, 'connect_not_supported');
    const expect = await ask({ ':method': 'GET', ':path': '/', expect: 'garbage' });
    assert.equal(expect.status, 417);
    assert.equal(JSON.parse(expect.body).code, 'expectation_failed');
    assert.equal(expect.headers.connection, undefined);
  });
});

test('HTTPS=1 is refused outside debug, with one line naming the variable', () => {
  assert.throws(() => testConfig({ HTTPS: '1', NODE_ENV: 'production' }), {
    message: 'HTTPS: a self-signed certificate is for the debug configuration only; set TLS_CERT and TLS_KEY in production',
  });
});
