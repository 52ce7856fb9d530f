/**
 * A body refused (413, 415, 400) on a keep-alive connection leaves the connection usable: the
 * client's next request on it is answered. A chunked upload refused 413 once read past the limit
 * used to leave the request stream paused, so the connection stopped being read and the next
 * request waited for ever (found by sending a 3 MB chunked PUT to the bookshop with Node's own
 * HTTP client, whose agent reuses the socket).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../src/index.ts';
import { readJsonBody } from '../../src/kernel/body-parsers.ts';
import { testConfig } from '../../src/testing/index.ts';

const LIMIT = 4096;

interface Answer {
  readonly status: number | 'no answer';
  readonly body: string;
  /** The client's port: the same one means the same connection. */
  readonly localPort: number | undefined;
  readonly connection: string | undefined;
}

function send(agent: http.Agent, port: number, method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
  return new Promise((resolve) => {
    const request = http.request({ host: '127.0.0.1', port, method, path, agent, headers, timeout: 5000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text, localPort: request.socket?.localPort, connection: res.headers.connection }));
    });
    request.on('timeout', () => {
      request.destroy();
      resolve({ status: 'no answer', body: '', localPort: undefined, connection: undefined });
    });
    request.on('error', () => resolve({ status: 'no answer', body: '', localPort: undefined, connection: undefined }));
    // Without a Content-Length Node's client sends the body chunked (RFC 9112 §7.1).
    if (body) for (let at = 0; at < body.length; at += 16_384) request.write(body.subarray(at, at + 16_384));
    request.end();
  });
}

describe('a refused body on a keep-alive connection', () => {
  let app: FastifyInstance;
  let port: number;
  before(async () => {
    app = await createApp({ config: testConfig({ BODY_LIMIT: String(LIMIT) }), tls: null });
    app.post('/echo', async (request) => request.body);
    // A route reading its own body after access control, as resource operations do.
    app.post('/deferred', { config: { deferBody: true } }, async (request) => readJsonBody(request, request.body as never));
    app.get('/hello', async () => ({ hello: 'world' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  after(() => app.close());

  const big = Buffer.from(`{"x":"${'a'.repeat(LIMIT * 200)}"}`);
  // A body refused while Fastify parses it closes its connection (Fastify says `Connection:
  // close`: the client may still be sending); one a route reads itself keeps it, the rest of the
  // body read and dropped. Either way the next request is answered.
  const json = { 'content-type': 'application/json' };
  const cases: [string, string, Record<string, string>, Buffer, number, 'kept' | 'closed'][] = [
    ['a chunked body past the limit', '/echo', json, big, 413, 'closed'],
    ['a chunked body past the limit, read by the route itself', '/deferred', json, big, 413, 'kept'],
    ['a Content-Length past the limit, read by the route itself', '/deferred', { ...json, 'content-length': String(big.length) }, big, 413, 'kept'],
    ['a Content-Length past the limit', '/echo', { ...json, 'content-length': String(big.length) }, big, 413, 'closed'],
    ['a chunked body of a type no parser takes', '/echo', { 'content-type': 'application/x-unknown' }, big, 415, 'closed'],
    ['a chunked body that is not JSON', '/echo', json, Buffer.from('{"x":'), 400, 'closed'],
    ['a chunked body that is not JSON, read by the route itself', '/deferred', json, Buffer.from('{"x":'), 400, 'kept'],
  ];
  for (const [name, path, headers, body, status, connection] of cases) {
    test(`${name}: ${status}, the connection ${connection}, and the next request answered`, async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const refused = await send(agent, port, 'POST', path, headers, body);
        assert.equal(refused.status, status);
        assert.equal(JSON.parse(refused.body).status, status);
        const next = await send(agent, port, 'GET', '/hello', { accept: 'application/json' });
        assert.equal(next.status, 200);
        assert.deepEqual(JSON.parse(next.body), { hello: 'world' });
        assert.equal(refused.connection, connection === 'kept' ? 'keep-alive' : 'close');
        if (connection === 'kept') assert.equal(next.localPort, refused.localPort, 'the same connection');
        else assert.notEqual(next.localPort, refused.localPort, 'a new connection');
      } finally {
        agent.destroy();
      }
    });
  }
});
