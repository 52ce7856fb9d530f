/**
 * REQUEST_TIMEOUT is a whole-request deadline (issue 14, item 5): headers or a body dribbled a
 * byte at a time are cut within the limit plus a small margin, answered 408 (RFC 9110 §15.5.9)
 * where a response can still be written; requests that finish in time are untouched.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../src/app/create-app.ts';
import { testConfig } from '../../src/testing/test-config.ts';

const LIMIT_MS = 2000;
/** The deadline plus the checking interval (a tenth of it) plus scheduling slack. */
const CUT_WITHIN_MS = LIMIT_MS + 700;

let app: FastifyInstance;
let port: number;
before(async () => {
  app = await createApp({ config: testConfig({ REQUEST_TIMEOUT: `${LIMIT_MS / 1000}s`, PROFILER: '0' }), tls: null });
  app.post('/echo', async (request) => ({ got: request.body }));
  app.get('/hello', async () => ({ hello: 'world' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});
after(() => app.close());

interface Dribble {
  readonly closedAfterMs: number;
  readonly response: string;
}

/** Sends `head` at once, then `trickle` a byte every `everyMs`; resolves when the server closes the connection. */
function dribble(head: string, trickle: string, everyMs: number): Promise<Dribble> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let response = '';
    let i = 0;
    let timer: NodeJS.Timeout | undefined;
    const socket: Socket = connect({ port, host: '127.0.0.1' }, () => {
      socket.write(head);
      timer = setInterval(() => {
        if (i < trickle.length && socket.writable) socket.write(trickle[i++]!);
      }, everyMs);
    });
    socket.setEncoding('latin1');
    socket.on('data', (c: string) => (response += c));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ closedAfterMs: Date.now() - started, response });
    });
    setTimeout(() => reject(new Error(`not cut within 10 s; got ${JSON.stringify(response)}`)), 10_000).unref();
  });
}

test('headers dribbled a byte at a time are cut at the deadline, 408', async () => {
  const headers = 'GET /hello HTTP/1.1\r\nHost: a.test\r\n' + 'X-Slow: ' + 'x'.repeat(200) + '\r\n\r\n';
  const r = await dribble('', headers, 100);
  assert.ok(r.closedAfterMs >= LIMIT_MS - 100 && r.closedAfterMs <= CUT_WITHIN_MS, `closed after ${r.closedAfterMs} ms`);
  assert.match(r.response, /^HTTP\/1\.1 408 Request Timeout/);
});

test('a body dribbled a byte at a time is cut at the deadline, 408', async () => {
  const head = 'POST /echo HTTP/1.1\r\nHost: a.test\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n';
  const r = await dribble(head, `{"a":"${'x'.repeat(990)}"}`, 100);
  assert.ok(r.closedAfterMs >= LIMIT_MS - 100 && r.closedAfterMs <= CUT_WITHIN_MS, `closed after ${r.closedAfterMs} ms`);
  assert.match(r.response, /^HTTP\/1\.1 408 Request Timeout/);
});

test('a request that stops sending, in its headers or its body, is answered 408 before its socket is closed', async () => {
  const stalledHeaders = await dribble('GET /hello HTTP/1.1\r\nHost: a.test\r\nX-Half: ', '', 1000);
  const stalledBody = await dribble('POST /echo HTTP/1.1\r\nHost: a.test\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"a":', '', 1000);
  for (const r of [stalledHeaders, stalledBody]) {
    assert.ok(r.closedAfterMs >= LIMIT_MS - 100 && r.closedAfterMs <= CUT_WITHIN_MS, `closed after ${r.closedAfterMs} ms`);
    assert.match(r.response, /^HTTP\/1\.1 408 Request Timeout/);
  }
});

test('a slow request that completes within the deadline is answered; a kept-alive connection is not sent a 408', async () => {
  const body = '{"a":1}';
  const text = `POST /echo HTTP/1.1\r\nHost: a.test\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  const socket = connect({ port, host: '127.0.0.1' });
  let response = '';
  socket.setEncoding('latin1');
  socket.on('data', (c: string) => (response += c));
  await new Promise((r) => socket.once('connect', r));
  for (const ch of text) {
    socket.write(ch);
    await new Promise((r) => setTimeout(r, 5));
  }
  await new Promise((r) => setTimeout(r, 300));
  assert.match(response, /^HTTP\/1\.1 200 OK/);
  assert.ok(response.endsWith('{"got":{"a":1}}'), response);
  // Idle after a completed request, for longer than the checking interval: no 408 is written.
  await new Promise((r) => setTimeout(r, LIMIT_MS / 2));
  assert.equal(response.includes('408'), false);
  socket.destroy();
});
