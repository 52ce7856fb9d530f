/**
 * A request whose connection closed before its answer was written still ends: one log line and
 * a profile, with the status the app answered. Fastify runs onResponse on the response's
 * 'finish' only, which never comes then: a client that gave up waiting, or a body REQUEST_TIMEOUT
 * cut while a handler read it, left no log line and no profile (only, for the timeout, an error
 * saying the client's body "ended before its declared length", though the client was answered 408).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { createApp, createLogger } from '../../src/index.ts';
import { testConfig } from '../../src/testing/test-config.ts';

let app: FastifyInstance;
let port: number;
const lines: string[] = [];
let slowDone: () => void = () => {};

before(async () => {
  const logger = createLogger({ level: 'info', captureRequestRecords: true, destination: new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }) });
  app = await createApp({ config: testConfig({ LOG_LEVEL: 'info', REQUEST_TIMEOUT: '1s' }), tls: null, logger });
  app.post('/echo', async (request) => ({ got: request.body }));
  app.get('/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    setImmediate(() => slowDone());
    return { done: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});
after(() => app.close());

/** Writes `text`, then waits for the server to close the connection (or closes it after `closeAfterMs`). */
function send(text: string, closeAfterMs?: number): Promise<string> {
  return new Promise((resolve) => {
    let response = '';
    const socket = connect({ port, host: '127.0.0.1' }, () => {
      socket.write(text);
      if (closeAfterMs !== undefined) setTimeout(() => socket.destroy(), closeAfterMs);
    });
    socket.setEncoding('latin1');
    socket.on('data', (c: string) => (response += c));
    socket.on('error', () => {});
    socket.on('close', () => resolve(response));
  });
}

async function profiles(path: string): Promise<{ statusCode: number; parent: string | null }[]> {
  await app.profiler!.settled();
  const search = await app.inject({ url: '/_profiler/search.json?limit=50', headers: { accept: 'application/json' } });
  const found = (search.json() as { results: { url: string; statusCode: number; parent: string | null }[] }).results;
  return found.filter((p) => new URL(p.url).pathname === path && p.parent === null);
}

test('a body cut by REQUEST_TIMEOUT: the client gets 408, the log and the profile say 408 too', async () => {
  const response = await send('POST /echo HTTP/1.1\r\nHost: a.test\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":');
  assert.match(response, /^HTTP\/1\.1 408 Request Timeout/);
  let line: string | undefined;
  for (let i = 0; i < 50 && line === undefined; i++) {
    line = lines.find((l) => /"msg":"POST \/echo \d+"/.test(l));
    if (line === undefined) await new Promise((r) => setTimeout(r, 20));
  }
  assert.match(line ?? '(no request line)', /"msg":"POST \/echo 408"/);
  assert.equal(lines.some((l) => /ended before its declared length/.test(l)), false, 'the client did not end its body: the deadline did');
  assert.ok(lines.some((l) => /"code":"request_timeout".*The request was not received in time\./.test(l)));
  assert.deepEqual((await profiles('/echo')).map((p) => p.statusCode), [408]);
});

test('a client that gives up before the answer: the request still has its log line and its profile', async () => {
  const finished = new Promise<void>((resolve) => (slowDone = resolve));
  const response = await send('GET /slow HTTP/1.1\r\nHost: a.test\r\n\r\n', 100);
  assert.equal(response, '');
  await finished;
  let line: string | undefined;
  for (let i = 0; i < 50 && line === undefined; i++) {
    line = lines.find((l) => /"msg":"GET \/slow \d+"/.test(l));
    if (line === undefined) await new Promise((r) => setTimeout(r, 20));
  }
  assert.match(line ?? '(no request line)', /"msg":"GET \/slow 200"/);
  assert.deepEqual((await profiles('/slow')).map((p) => p.statusCode), [200]);
});
