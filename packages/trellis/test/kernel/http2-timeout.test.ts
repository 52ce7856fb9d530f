/**
 * REQUEST_TIMEOUT over HTTP/2 (issue 14, item 5): Node's HTTP/2 server has no request deadline, so
 * a stream whose body never ended stayed open as long as its session, holding its share of
 * BODY_MEMORY: sixteen such streams held every upload back (found by the adversarial review).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import http2 from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../src/index.ts';
import { testConfig } from '../../src/testing/index.ts';
import { createLogger } from '../../src/logging/create-logger.ts';
import { Writable } from 'node:stream';

const LIMIT_MS = 2000;
let app: FastifyInstance;
let session: http2.ClientHttp2Session;
let varDir: string;
const lines: string[] = [];

before(async () => {
  varDir = mkdtempSync(join(tmpdir(), 'trellis-h2-timeout-'));
  const config = testConfig({ HTTPS: '1', PROFILER: '0', REQUEST_TIMEOUT: `${LIMIT_MS / 1000}s`, BODY_MEMORY: '150k' });
  const logger = createLogger({ level: 'info', captureRequestRecords: false, destination: new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }) });
  app = await createApp({ config, varDir, logger });
  app.post('/echo', async (request) => ({ length: ((request.body as { a: string }).a ?? '').length }));
  // A route that never reads its body (its parser hands it the stream unread) and is slow to answer.
  app.post('/ignore', { config: { deferBody: true } }, async () => {
    await new Promise((r) => setTimeout(r, LIMIT_MS + 500));
    return { ignored: true };
  });
  // A route that starts its answer and never ends it, its request's body never read.
  app.post('/stuck', { config: { deferBody: true } }, async (_request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/plain' });
    reply.raw.write('started');
    await new Promise(() => {});
  });
  app.get('/slow', async () => {
    await new Promise((r) => setTimeout(r, LIMIT_MS + 500));
    return { slow: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  session = http2.connect(`https://localhost:${(app.server.address() as AddressInfo).port}`, { rejectUnauthorized: false });
  session.on('error', () => {});
});
after(async () => {
  session.destroy();
  await app.close();
  rmSync(varDir, { recursive: true, force: true });
});

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly afterMs: number;
  readonly rstCode: number | undefined;
}

/** A POST of `length` announced bytes, `sent` of them sent now, the rest `dribble`d a byte every 200 ms when asked. */
function post(path: string, length: number, sent: number, options: { dribble?: boolean; end?: boolean } = {}): Promise<Answer> {
  const started = Date.now();
  const body = `{"a":"${'x'.repeat(length - 8)}"}`;
  const stream = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/json', 'content-length': String(length) });
  stream.on('error', () => {});
  if (options.end) stream.end(body);
  else stream.write(body.slice(0, sent));
  const drip = options.dribble ? setInterval(() => stream.writable && stream.write('x'), 200) : undefined;
  let status = 0;
  let text = '';
  stream.on('response', (headers) => {
    status = Number(headers[':status']);
    // Answered: a client stops sending its body.
    clearInterval(drip);
  });
  stream.setEncoding('utf8');
  stream.on('data', (c: string) => (text += c));
  return new Promise((resolve) => {
    stream.on('close', () => {
      clearInterval(drip);
      resolve({ status, body: text, afterMs: Date.now() - started, rstCode: stream.rstCode });
    });
  });
}

const cutInTime = (r: Answer) => assert.ok(r.afterMs >= LIMIT_MS - 100 && r.afterMs <= LIMIT_MS + 1200, `answered after ${r.afterMs} ms`);

test('a body that stops short of its Content-Length is cut at the deadline: 408 from the app, with its code and message', { timeout: 15_000 }, async () => {
  const r = await post('/echo', 1000, 10);
  cutInTime(r);
  assert.equal(r.status, 408);
  const problem = JSON.parse(r.body) as { code: string; detail: string };
  assert.equal(problem.code, 'request_timeout');
  assert.equal(problem.detail, HttpErrorMessage);
});

test('a body dribbled a byte at a time is cut at the deadline, 408', { timeout: 15_000 }, async () => {
  const r = await post('/echo', 1000, 10, { dribble: true });
  cutInTime(r);
  assert.equal(r.status, 408);
});

test('a body nobody reads is cut too: the deadline answers 408 itself, and the late answer of the route is dropped', { timeout: 15_000 }, async () => {
  const r = await post('/ignore', 1000, 10);
  cutInTime(r);
  assert.equal(r.status, 408);
  assert.equal((JSON.parse(r.body) as { code: string }).code, 'request_timeout');
  // The route's own answer comes after: given up without a word blaming the app, and the next
  // request is served.
  await new Promise((resolve) => setTimeout(resolve, 700));
  const next = await post('/echo', 100, 100, { end: true });
  assert.equal(next.status, 200);
  const warnings = lines.map((l) => JSON.parse(l) as { level: number; msg?: string; err?: { message?: string } }).filter((l) => l.level >= 40 && /already sent/i.test(`${l.msg} ${l.err?.message}`));
  assert.deepEqual(warnings, []);
  // Its log line tells what the client got.
  assert.ok(lines.some((l) => (JSON.parse(l) as { msg?: string }).msg === 'POST /ignore 408'), lines.filter((l) => l.includes('/ignore')).join('\n'));
});

test('a stream whose answer was begun and never ended, its body still coming, is reset shortly after the deadline', { timeout: 15_000 }, async () => {
  const r = await post('/stuck', 1000, 10);
  assert.equal(r.status, 200);
  assert.equal(r.body, 'started');
  assert.equal(r.rstCode, http2.constants.NGHTTP2_CANCEL);
  assert.ok(r.afterMs >= LIMIT_MS + 900 && r.afterMs <= LIMIT_MS + 2200, `reset after ${r.afterMs} ms`);
});

test('streams that hold BODY_MEMORY without ending it are cut, and give their share back', { timeout: 15_000 }, async () => {
  const holders = [post('/echo', 100_000, 100_000 - 1), post('/echo', 100_000, 50_000)];
  // Admitted or waiting, each is answered 408 at its deadline; the budget is whole again after.
  const answers = await Promise.all(holders);
  for (const r of answers) {
    assert.equal(r.status, 408);
    cutInTime(r);
  }
  assert.equal(app.trellis.bodyBudget.used, 0);
  assert.equal(app.trellis.bodyBudget.waiting, 0);
  const ok = await post('/echo', 100_000, 100_000, { end: true });
  assert.equal(ok.status, 200);
  assert.match(ok.body, /"length":99992/);
});

test('a request received in time may take longer than the deadline to answer', { timeout: 15_000 }, async () => {
  const started = Date.now();
  const stream = session.request({ ':method': 'GET', ':path': '/slow' });
  let status = 0;
  stream.on('response', (h) => (status = Number(h[':status'])));
  stream.resume();
  await new Promise((r) => stream.on('close', r));
  assert.equal(status, 200);
  assert.ok(Date.now() - started >= LIMIT_MS + 400);
  const whole = await post('/echo', 5000, 5000, { end: true });
  assert.equal(whole.status, 200);
});

const HttpErrorMessage = (await import('../../src/kernel/http-error.ts')).HttpError.of('request_timeout').message;
