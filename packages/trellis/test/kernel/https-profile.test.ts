/**
 * Over TLS, HTTP/2 and HTTP/1.1 alike, the profile's URL has the https scheme, the host and port
 * the client used, and the client's address, also for a request rejected for its Host; links in
 * headers use the same origin (issue 15, item 3).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../src/index.ts';
import { testConfig } from '../../src/testing/index.ts';

function h2(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http2.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const client = http2.connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
    client.on('error', reject);
    const req = client.request({ ':path': path, accept: 'application/json', ...headers });
    req.on('response', (h) => {
      req.resume();
      req.on('end', () => {
        client.close();
        resolve({ status: Number(h[':status']), headers: h });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

function h1(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port, path, headers: { accept: 'application/json', ...headers }, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'], agent: false } as https.RequestOptions, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('profiles over TLS (HTTPS=1)', () => {
  const varDir = mkdtempSync(join(tmpdir(), 'trellis-tls-profile-'));
  let app: FastifyInstance;
  let port: number;
  before(async () => {
    app = await createApp({ config: testConfig({ HTTPS: '1', PROFILER_DSN: 'memory:', TRUSTED_HOSTS: '^127\\.0\\.0\\.1$' }), varDir });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  after(async () => {
    await app.close();
    rmSync(varDir, { recursive: true, force: true });
  });

  const profileOf = async (token: unknown) => {
    await app.profiler!.settled();
    return (await app.inject({ url: `/_profiler/${String(token)}.json`, headers: { host: '127.0.0.1' } })).json() as { url: string; ip: string; request?: unknown };
  };

  for (const [name, send] of [['HTTP/2', h2], ['HTTP/1.1', h1]] as const) {
    test(`${name}: https in the profile's URL and in the links`, async () => {
      const r = await send(port, '/robots.txt');
      assert.equal(r.status, 404);
      assert.equal(r.headers['x-debug-token-link'], `https://127.0.0.1:${port}/_profiler/${String(r.headers['x-debug-token'])}`);
      assert.match(String(r.headers.link), new RegExp(`^<https://127\\.0\\.0\\.1:${port}/docs\\.jsonld>`));
      const profile = await profileOf(r.headers['x-debug-token']);
      assert.equal(profile.url, `https://127.0.0.1:${port}/robots.txt`);
      assert.equal(profile.ip, '127.0.0.1');
      // The response headers as captured: over HTTP/1.1 the block written to the socket (with the
      // Date Node adds), over HTTP/2, which has none, getHeaders() (profiler/wire-headers.ts).
      const headers = (profile as unknown as { collectors: { response: { headers: Record<string, unknown> } } }).collectors.response.headers;
      assert.equal(headers['x-debug-token'], r.headers['x-debug-token']);
      assert.equal(headers['content-type'], r.headers['content-type']);
      assert.equal(headers.date, name === 'HTTP/1.1' ? r.headers.date : undefined);
    });

    test(`${name}: a request rejected for its Host keeps the client's address`, async () => {
      const r = await send(port, '/robots.txt', name === 'HTTP/2' ? { ':authority': 'evil.example' } : { host: 'evil.example' });
      assert.equal(r.status, 400);
      const profile = await profileOf(r.headers['x-debug-token']);
      assert.equal(profile.ip, '127.0.0.1');
      assert.equal(profile.url, '/robots.txt');
    });
  }
});
