/**
 * BODY_MEMORY bounds the bytes of large request bodies read at once (kernel/body-budget.ts): past
 * it a body waits, unread, for others to be done. Tried over real sockets, as clients that hold a
 * body half-sent, go away, or never finish.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../src/app/create-app.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import type { Readable } from 'node:stream';
import { readBody } from '../../src/kernel/read-body.ts';
import { bodyOptions } from '../../src/kernel/body-parsers.ts';
import type { HttpError } from '../../src/kernel/http-error.ts';

const BUDGET = 150_000;
const TIMEOUT_MS = 4000;
let app: FastifyInstance;
const lateReads: Promise<string>[] = [];
let port: number;
before(async () => {
  app = await createApp({ config: testConfig({ BODY_MEMORY: String(BUDGET), REQUEST_TIMEOUT: `${TIMEOUT_MS / 1000}s`, PROFILER: '0' }), tls: null });
  app.post('/echo', async (request) => {
    const text = (request.body as { a: string }).a;
    return { length: text.length, sha: createHash('sha256').update(text).digest('hex') };
  });
  // Reads its body after a wait, as a resource operation does after access control.
  app.post('/late', { config: { deferBody: true } }, async (request) => {
    await new Promise((r) => setTimeout(r, 150));
    lateReads.push(readBody(request.body as Readable, bodyOptions(request)).then(() => 'read', (e: HttpError) => e.code));
    return lateReads.at(-1);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});
after(() => app.close());

const budget = () => app.trellis.bodyBudget;

/** A JSON body of exactly `size` bytes: {"a":"<fill>"}. */
function bodyOf(size: number, fill = 'x'): string {
  return `{"a":"${fill.repeat(size - 8)}"}`;
}

interface Upload {
  readonly socket: Socket;
  /** Resolves with the whole response once the server ends or closes the connection. */
  readonly response: Promise<string>;
  /** Sends the rest of the body. */
  finish(): void;
}

/** Opens a connection and sends the head and the first `sent` bytes of `body`; `finish` sends the rest. */
function upload(body: string, sent: number, headers = `Content-Length: ${Buffer.byteLength(body)}`): Upload {
  const socket = connect({ port, host: '127.0.0.1' });
  socket.write(`POST /echo HTTP/1.1\r\nHost: a.test\r\nContent-Type: application/json\r\nConnection: close\r\n${headers}\r\n\r\n`);
  socket.write(body.slice(0, sent));
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', (c: string) => (text += c));
  socket.on('error', () => {});
  const response = new Promise<string>((resolve) => socket.on('close', () => resolve(text)));
  return { socket, response, finish: () => socket.write(body.slice(sent)) };
}

/** Waits until `check` holds, at most 3 s. */
async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 3000;
  while (!check()) {
    if (Date.now() > end) assert.fail(`not within 3 s: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const settled = (p: Promise<unknown>, ms: number) => Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), ms))]);

test('a large body past the budget waits, unread, while another is read, and is read once it is done', async () => {
  const a = upload(bodyOf(100_000, 'a'), 50_000);
  await until(() => budget().used === 100_000, 'the first body admitted');
  const b = upload(bodyOf(100_000, 'b'), 100_000);
  await until(() => budget().waiting === 1, 'the second body waiting');
  assert.equal(await settled(b.response, 300), false, 'answered while it should wait');
  assert.equal(budget().used, 100_000);
  a.finish();
  const [ra, rb] = await Promise.all([a.response, b.response]);
  assert.match(ra, /^HTTP\/1\.1 200 OK/);
  assert.match(ra, /"length":99992/);
  assert.match(rb, /^HTTP\/1\.1 200 OK/);
  assert.match(rb, new RegExp(`"sha":"${createHash('sha256').update('b'.repeat(99_992)).digest('hex')}"`));
  await until(() => budget().used === 0 && budget().waiting === 0, 'the budget given back');
});

test('a small body is never held back by a large one that holds the budget', async () => {
  const a = upload(bodyOf(140_000), 10_000);
  await until(() => budget().used === 140_000, 'the large body admitted');
  const small = await fetch(`http://127.0.0.1:${port}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodyOf(2000) });
  assert.equal(small.status, 200);
  assert.equal(((await small.json()) as { length: number }).length, 1992);
  a.socket.destroy();
  await until(() => budget().used === 0, 'the budget given back');
});

test('a client gone while its body waits leaves the queue; one gone mid-body gives its bytes back', async () => {
  const a = upload(bodyOf(100_000), 1000);
  await until(() => budget().used === 100_000, 'the first body admitted');
  const b = upload(bodyOf(100_000), 100_000);
  await until(() => budget().waiting === 1, 'the second body waiting');
  b.socket.destroy();
  await until(() => budget().waiting === 0, 'the gone client out of the queue');
  assert.equal(budget().used, 100_000);
  a.socket.destroy();
  await until(() => budget().used === 0, 'the bytes of the gone client given back');
  const c = upload(bodyOf(120_000), 120_000);
  assert.match(await c.response, /^HTTP\/1\.1 200 OK[^]*"length":119992/);
});

test('a client that announces a body and stops sending gives its place back within a second or two: the body behind it is read, and its own still is once sent', async () => {
  const started = Date.now();
  const stalled = upload(bodyOf(100_000, 's'), 1000);
  await until(() => budget().used === 100_000, 'the first body admitted');
  const b = upload(bodyOf(100_000, 'b'), 100_000);
  await until(() => budget().waiting === 1, 'the second body waiting');
  const rb = await b.response;
  const waited = Date.now() - started;
  assert.match(rb, /^HTTP\/1\.1 200 OK[^]*"length":99992/);
  // Idle for a second, found within half of one more: well before REQUEST_TIMEOUT.
  assert.ok(waited >= 900 && waited < TIMEOUT_MS - 1000, `answered after ${waited} ms`);
  // With b done, the stalled body is admitted again (nobody waits behind it now), and is read when it sends the rest.
  await until(() => budget().used === 100_000 && budget().waiting === 0, 'the stalled body admitted again');
  stalled.finish();
  const rs = await stalled.response;
  assert.match(rs, new RegExp(`^HTTP/1\\.1 200 OK[^]*"sha":"${createHash('sha256').update('s'.repeat(99_992)).digest('hex')}"`));
  await until(() => budget().used === 0 && budget().waiting === 0, 'the budget given back');
});

test('a client that stalls mid-body while nobody waits is cut by REQUEST_TIMEOUT alone, 408, and the budget is whole again', async () => {
  const started = Date.now();
  const stalled = upload(bodyOf(100_000), 1000);
  await until(() => budget().used === 100_000, 'the body admitted');
  const r = await stalled.response;
  const after = Date.now() - started;
  assert.match(r, /^HTTP\/1\.1 408 Request Timeout/);
  assert.ok(after >= TIMEOUT_MS - 100 && after <= TIMEOUT_MS + 1500, `cut after ${after} ms`);
  await until(() => budget().used === 0 && budget().waiting === 0, 'the budget given back');
});

test('clients that announce bodies and send nothing, queued ahead of an upload, hold it back for a second or two, not one after another', async () => {
  const started = Date.now();
  const silent = Array.from({ length: 6 }, () => upload(bodyOf(100_000), 0));
  await until(() => budget().used === 100_000 && budget().waiting === 5, 'one silent body admitted, five waiting');
  const b = upload(bodyOf(100_000, 'b'), 100_000);
  const rb = await b.response;
  const waited = Date.now() - started;
  assert.match(rb, /^HTTP\/1\.1 200 OK[^]*"length":99992/);
  assert.ok(waited < 2500, `answered after ${waited} ms`);
  for (const s of silent) s.socket.destroy();
  await until(() => budget().used === 0 && budget().waiting === 0, 'the budget given back');
});

test('a client that dribbles its body a byte at a time gives its place back while an upload waits, and is cut by REQUEST_TIMEOUT in the end', async () => {
  const started = Date.now();
  const dribbler = upload(bodyOf(100_000), 1000);
  await until(() => budget().used === 100_000, 'the dribbler admitted');
  let sent = 1000;
  const drip = setInterval(() => {
    if (!dribbler.socket.destroyed) dribbler.socket.write('x');
    sent++;
  }, 200);
  try {
    const b = upload(bodyOf(100_000, 'b'), 100_000);
    const rb = await b.response;
    const waited = Date.now() - started;
    assert.match(rb, /^HTTP\/1\.1 200 OK[^]*"length":99992/);
    assert.ok(waited < 2500, `answered after ${waited} ms, the dribbler having sent ${sent} bytes`);
    assert.match(await dribbler.response, /^HTTP\/1\.1 408 Request Timeout/);
  } finally {
    clearInterval(drip);
  }
  await until(() => budget().used === 0 && budget().waiting === 0, 'the budget given back');
});

test('a client that half-closes after its whole body, before the app reads it: the read fails at once, and holds no share', async () => {
  for (const framing of ['chunked', 'length']) {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.on('error', () => {});
    const body = '{"a":"x"}';
    const head = framing === 'chunked' ? `Transfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n` : `Content-Length: 200000\r\n\r\n${body}`;
    socket.end(`POST /late HTTP/1.1\r\nHost: a.test\r\nContent-Type: application/json\r\n${head}`);
    await until(() => lateReads.length > 0, 'the late read started');
    const outcome = await Promise.race([lateReads.shift()!, new Promise((r) => setTimeout(() => r('still waiting'), 1000))]);
    assert.equal(outcome, 'body_incomplete', framing);
  }
  assert.equal(budget().used, 0);
  assert.equal(budget().waiting, 0);
});

test('a chunked body, of unknown length, is counted at the body limit: it waits for a large body being read', async () => {
  const a = upload(bodyOf(100_000), 1000);
  await until(() => budget().used === 100_000, 'the first body admitted');
  const json = bodyOf(40);
  const chunked = upload(`${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`, 1000, 'Transfer-Encoding: chunked');
  await until(() => budget().waiting === 1, 'the chunked body waiting');
  a.finish();
  assert.match(await chunked.response, /^HTTP\/1\.1 200 OK[^]*"length":32/);
  await a.response;
  await until(() => budget().used === 0, 'the budget given back');
});

test('thirty uploads at once through a budget of one and a half bodies: every one answered with its own body', async () => {
  const bodies = Array.from({ length: 30 }, (_, i) => bodyOf(100_000, String.fromCharCode(97 + (i % 26))));
  let peak = 0;
  const watch = setInterval(() => (peak = Math.max(peak, budget().used)), 1);
  const answers = await Promise.all(bodies.map(async (body) => {
    const r = await fetch(`http://127.0.0.1:${port}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return { status: r.status, ...((await r.json()) as { sha: string }) };
  }));
  clearInterval(watch);
  answers.forEach((r, i) => {
    assert.equal(r.status, 200);
    assert.equal(r.sha, createHash('sha256').update((JSON.parse(bodies[i]!) as { a: string }).a).digest('hex'));
  });
  assert.ok(peak <= BUDGET, `held ${peak} bytes at once`);
  assert.equal(budget().used, 0);
});
