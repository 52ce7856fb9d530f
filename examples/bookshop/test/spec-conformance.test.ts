/**
 * The spec (../shared/spec), replayed from outside on real sockets, over HTTP/1.1 and HTTP/2 with
 * TLS (the spec's service is HTTPS) and plain HTTP/1.1 (`npm start`): section 4's routes and
 * rules, section 7's table, the profile's fields, "<n> results found", two profiles for one
 * failing request, HEAD and other methods on the profiler's routes (issue 15, done-when).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { openDatabase } from 'trellis';
import { testConfig } from 'trellis/testing';
import { createBookshop } from '../src/bookshop.ts';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}
type Send = (method: string, path: string, headers?: Record<string, string>) => Promise<Answer>;

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const JSON_ACCEPT = 'application/json';
const TIME = /^\d{2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{4} \d{2}:\d{2}:\d{2}$/;

function h1(port: number, tls: boolean): Send {
  return (method, path, headers = {}) =>
    new Promise((resolve, reject) => {
      const options = { host: '127.0.0.1', port, method, path, headers, agent: false, ...(tls && { rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] }) };
      const req = (tls ? https : http).request(options as https.RequestOptions, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });
}

function h2(port: number): Send {
  return (method, path, headers = {}) =>
    new Promise((resolve, reject) => {
      const client = http2.connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
      client.on('error', reject);
      const req = client.request({ ':method': method, ':path': path, ...headers });
      let status = 0;
      let resHeaders: Record<string, string | string[] | undefined> = {};
      let body = '';
      req.setEncoding('utf8');
      req.on('response', (h) => {
        status = Number(h[':status']);
        resHeaders = h as Record<string, string | string[] | undefined>;
      });
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        client.close();
        resolve({ status, headers: resHeaders, body });
      });
      req.on('error', reject);
      req.end();
    });
}

for (const transport of ['HTTP/1.1 over TLS', 'HTTP/2 over TLS', 'HTTP/1.1'] as const) {
  describe(`the spec, ${transport}`, () => {
    const varDir = mkdtempSync(join(tmpdir(), 'trellis-spec-'));
    const database = openDatabase('sqlite::memory:');
    let app: FastifyInstance;
    let send: Send;
    let origin: string;
    before(async () => {
      const tls = transport !== 'HTTP/1.1';
      app = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:', ...(tls && { HTTPS: '1' }) }), database, varDir, seed: { passwordCost: 1024 } });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      origin = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
      send = transport === 'HTTP/2 over TLS' ? h2(port) : h1(port, tls);
    });
    after(async () => {
      await app.close();
      await database.destroy();
      rmSync(varDir, { recursive: true, force: true });
    });

    test('§4 rule 1 and §7: paths no route matches are 404 with the exact message, also with a referer', async () => {
      for (const path of ['/robots.txt', '/.env', '/app/.env', '/laravel/.env', '/admin/.env']) {
        const r = await send('GET', path, { accept: JSON_ACCEPT });
        assert.equal(r.status, 404, path);
        assert.equal(JSON.parse(r.body).detail, `No route found for "GET ${path}"`);
      }
      const referred = await send('GET', '/robots.txt', { accept: JSON_ACCEPT, referer: 'https://example.test/page' });
      assert.equal(JSON.parse(referred.body).detail, 'No route found for "GET /robots.txt" (from "https://example.test/page")');
    });

    test('§4 rule 2 and §7: a known path with another method is 405 with Allow', async () => {
      const r = await send('DELETE', '/', { accept: JSON_ACCEPT });
      assert.equal(r.status, 405);
      assert.equal(r.headers.allow, 'GET, HEAD');
      assert.equal(JSON.parse(r.body).detail, 'No route found for "DELETE /": Method Not Allowed (Allow: GET, HEAD)');
      for (const path of ['/_profiler/latest', '/_profiler/search_bar']) {
        const post = await send('POST', path, { accept: JSON_ACCEPT });
        assert.equal(post.status, 405, path);
        assert.equal(post.headers.allow, 'GET, HEAD');
      }
    });

    test('§7 debug: a browser gets the HTML exception page, two chained exceptions, a log and traces', async () => {
      const r = await send('GET', '/robots.txt', { accept: BROWSER });
      assert.equal(r.status, 404);
      assert.match(r.body, /<title>No route found for &quot;GET \/robots\.txt&quot; \(404 Not Found\)<\/title>/);
      assert.deepEqual([...r.body.matchAll(/<span class="exception-class">([^<]+)<\/span>/g)].map((m) => m[1]), ['NotFoundHttpException', 'ResourceNotFoundException']);
      assert.match(r.body, /No routes found for &quot;\/robots\.txt&quot;\./);
      assert.match(r.body, /<ol class="trace">\s*<li/);
    });

    test('§1 and §2: every request is a profile with the spec\'s fields; one failing request makes two; "<n> results found"', async () => {
      const marker = `spec-${Date.now().toString(36)}`;
      const r = await send('GET', `/robots.txt?${marker}`, { accept: BROWSER });
      const token = String(r.headers['x-debug-token']);
      assert.match(token, /^[0-9a-f]{6}$/);
      assert.equal(r.headers['x-debug-token-link'], `${origin}/_profiler/${token}`);
      await app.profiler!.settled();
      const json = JSON.parse((await send('GET', `/_profiler/${token}.json`)).body) as Record<string, unknown>;
      assert.equal(json.statusCode, 404);
      assert.equal(json.ip, '127.0.0.1');
      assert.equal(json.method, 'GET');
      assert.equal(json.url, `${origin}/robots.txt?${marker}`);
      assert.match(String(json.formattedTime), TIME);
      assert.equal(json.token, token);
      const page = await send('GET', `/_profiler/${token}`, { accept: BROWSER });
      assert.equal(page.status, 200);
      for (const shown of ['404', '127.0.0.1', 'GET', `${origin}/robots.txt?${marker}`, String(json.formattedTime), token]) assert.ok(page.body.includes(shown), `the page shows ${shown}`);
      const search = await send('GET', `/_profiler/search?url=${encodeURIComponent(marker)}`, { accept: BROWSER });
      assert.match(search.body, /<h2 class="pf-results-count">2 results found<\/h2>/);
      const latest = await send('GET', '/_profiler/latest', { accept: BROWSER });
      assert.equal(latest.status, 200);
    });

    test('§4: the four routes, GET and HEAD', async () => {
      const failing = await send('GET', '/robots.txt', { accept: JSON_ACCEPT });
      const token = String(failing.headers['x-debug-token']);
      await app.profiler!.settled();
      const routes: [string, RegExp][] = [
        [`/_profiler/${token}`, /^text\/html/],
        ['/_profiler/latest', /^text\/html/],
        [`/_profiler/${token}/exception`, /^text\/html/],
        [`/_profiler/${token}/exception.css`, /^text\/css/],
        ['/_profiler/search_bar', /^text\/html/],
      ];
      for (const [path, type] of routes) {
        const get = await send('GET', path, { accept: BROWSER });
        assert.equal(get.status, 200, path);
        assert.match(String(get.headers['content-type']), type, path);
        assert.ok(get.body.length > 0, path);
        const head = await send('HEAD', path, { accept: BROWSER });
        assert.equal(head.status, 200, `HEAD ${path}`);
        assert.equal(head.body, '', `HEAD ${path}`);
      }
      const exception = await send('GET', `/_profiler/${token}/exception`, { accept: BROWSER });
      assert.match(exception.body, /No route found for &quot;GET \/robots\.txt&quot;/);
      const unknown = await send('GET', '/_profiler/abcdef', { accept: BROWSER });
      assert.equal(unknown.status, 404);
    });
  });
}

test('§7: an absolute-form request line names the path, not the URI, in the message', async () => {
  const { connect } = await import('node:net');
  const database = openDatabase('sqlite::memory:');
  const app = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:' }), database, seed: { passwordCost: 1024 } });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect({ port, host: '127.0.0.1' }, () => socket.end(`GET http://127.0.0.1:${port}/robots.txt?x=1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`));
      let data = '';
      socket.on('data', (c) => (data += c));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    assert.match(raw, /^HTTP\/1\.1 404 Not Found/);
    assert.equal(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)).detail, 'No route found for "GET /robots.txt"');
  } finally {
    await app.close();
    await database.destroy();
  }
});
