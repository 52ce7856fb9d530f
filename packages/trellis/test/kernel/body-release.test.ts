/**
 * A large request body's chunks, and the copy they are joined into, are freed as soon as the body
 * is decoded (kernel/release-buffers.ts), not at the next full collection. Tried over real sockets:
 * what was freed is what Node copied for us alone, and no other request's bytes are touched.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { once } from 'node:events';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../src/app/create-app.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { readBody } from '../../src/kernel/read-body.ts';

let app: FastifyInstance;
let port: number;
/** The chunks each request's stream handed out, by the fill its body was made of. */
const seen = new Map<string, Uint8Array[]>();

before(async () => {
  app = await createApp({ config: testConfig({ PROFILER: '0' }), tls: null });
  // Watches what the request stream emits without listening to it (a listener would be a second reader).
  app.addHook('onRequest', (request, _reply, done) => {
    const raw = request.raw;
    const chunks: Uint8Array[] = [];
    seen.set(String(request.headers['x-fill']), chunks);
    const emit = raw.emit.bind(raw);
    raw.emit = ((event: string, ...args: unknown[]) => {
      if (event === 'data') chunks.push(args[0] as Uint8Array);
      return emit(event, ...args);
    }) as typeof raw.emit;
    done();
  });
  app.post('/echo', async (request) => {
    const text = (request.body as { a: string }).a;
    return { length: text.length, sha: sha(text) };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});
after(() => app.close());

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const bodyOf = (size: number, fill: string) => `{"a":"${fill.repeat(size - 8)}"}`;

function post(body: string, fill: string): Promise<{ status: number; json: { length: number; sha: string } }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ port, host: '127.0.0.1', method: 'POST', path: '/echo', headers: { 'content-type': 'application/json', 'x-fill': fill } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('a 900 KB body is decoded whole, and every chunk it came in is freed once decoded', async () => {
  const body = bodyOf(900 * 1024, 'q');
  const { status, json } = await post(body, 'q');
  assert.equal(status, 200);
  assert.deepEqual(json, { length: 900 * 1024 - 8, sha: sha('q'.repeat(900 * 1024 - 8)) });
  const chunks = seen.get('q')!;
  assert.ok(chunks.length > 1, `a body this large comes in several chunks (${chunks.length})`);
  assert.deepEqual(
    chunks.map((c) => c.byteLength),
    chunks.map(() => 0),
    'each chunk was detached: its memory is given back now',
  );
});

test('a small body is left to the collector: its chunks are as they came', async () => {
  const { status, json } = await post(bodyOf(10_000, 's'), 's');
  assert.equal(status, 200);
  assert.equal(json.length, 10_000 - 8);
  const chunks = seen.get('s')!;
  assert.equal(chunks.reduce((n, c) => n + c.byteLength, 0), 10_000);
});

test('pipelined large bodies on one connection are each read whole: freeing one touches no other', async () => {
  const fills = ['a', 'b', 'c'];
  const bodies = fills.map((f, i) => bodyOf(200_000 + i * 1111, f));
  const socket = connect({ port, host: '127.0.0.1' });
  // All three in one write: their bytes arrive in the same reads.
  socket.write(
    bodies
      .map((b, i) => `POST /echo HTTP/1.1\r\nHost: a.test\r\nContent-Type: application/json\r\nX-Fill: ${fills[i]}\r\n${i === 2 ? 'Connection: close\r\n' : ''}Content-Length: ${b.length}\r\n\r\n${b}`)
      .join(''),
  );
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (c: string) => (text += c));
  await once(socket, 'close');
  const answers = [...text.matchAll(/\r\n\r\n(\{[^}]*\})/g)].map((m) => JSON.parse(m[1]!) as { length: number; sha: string });
  assert.deepEqual(
    answers,
    fills.map((f, i) => ({ length: 200_000 + i * 1111 - 8, sha: sha(f.repeat(200_000 + i * 1111 - 8)) })),
  );
});

test('twenty concurrent uploads of different sizes each get their own bytes back', async () => {
  const fills = 'defghijklmnoprtuvwyz'.split('');
  const results = await Promise.all(fills.map((f, i) => post(bodyOf(64 * 1024 + i * 37_501, f), f)));
  assert.deepEqual(
    results.map((r) => [r.status, r.json.length, r.json.sha]),
    fills.map((f, i) => [200, 64 * 1024 + i * 37_501 - 8, sha(f.repeat(64 * 1024 + i * 37_501 - 8))]),
  );
});

test('a body another listener also reads keeps its chunks: they are not ours alone to free', async () => {
  let spied: Uint8Array[] = [];
  let read: Promise<string> | null = null;
  const server = createServer((req: IncomingMessage, res) => {
    read = readBody(req, { limit: 2 ** 20, contentLength: req.headers['content-length'] });
    spied = [];
    req.on('data', (c: Uint8Array) => spied.push(c));
    void read.then((text) => res.end(String(text.length)));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port: spyPort } = server.address() as { port: number };
  const body = 'z'.repeat(300_000);
  const answer = await new Promise<string>((resolve, reject) => {
    const req = httpRequest({ port: spyPort, host: '127.0.0.1', method: 'POST' }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end(body);
  });
  server.close();
  assert.equal(answer, '300000');
  assert.equal(await read!, body);
  assert.equal(Buffer.concat(spied).toString(), body, 'the other reader still has every byte');
});
