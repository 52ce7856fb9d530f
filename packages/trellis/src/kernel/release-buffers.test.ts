import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { once } from 'node:events';
import Fastify from 'fastify';
import { handsOutOwnCopies, releaseBuffer } from './release-buffers.ts';

test('a buffer that is the whole of its ArrayBuffer is freed: it reads as empty, its memory given back', () => {
  const buffer = Buffer.allocUnsafeSlow(256 * 1024).fill(1);
  const before = process.memoryUsage().arrayBuffers;
  releaseBuffer(buffer);
  assert.equal(buffer.byteLength, 0);
  assert.equal(buffer.buffer.byteLength, 0);
  assert.equal(buffer.buffer.detached, true);
  // Freed now, not at a collection (other allocations may move the figure a little).
  assert.ok(before - process.memoryUsage().arrayBuffers >= 200 * 1024, 'the backing store is freed at once');
});

test('a buffer sharing its ArrayBuffer (a slice, a pooled small Buffer) is left as it was', () => {
  const whole = Buffer.alloc(1024, 7);
  const slice = whole.subarray(0, 512);
  releaseBuffer(slice);
  assert.equal(slice.byteLength, 512);
  assert.equal(whole.byteLength, 1024);
  assert.equal(whole[1000], 7);
  const pooled = Buffer.from('small text in the pool');
  releaseBuffer(pooled);
  assert.equal(pooled.toString(), 'small text in the pool');
  const tail = whole.subarray(512);
  releaseBuffer(tail);
  assert.equal(tail.byteLength, 512);
});

test('an empty or resizable buffer is left alone', () => {
  const empty = new Uint8Array(0);
  releaseBuffer(empty);
  assert.equal(empty.buffer.detached, false);
  const resizable = new Uint8Array(new ArrayBuffer(16, { maxByteLength: 64 }));
  releaseBuffer(resizable);
  assert.equal(resizable.buffer.detached, false);
  assert.equal(resizable.byteLength, 16);
});

test('only an HTTP/1.x request read from a socket hands out chunks of its own', async () => {
  assert.equal(handsOutOwnCopies(Readable.from([Buffer.from('a caller keeps this')])), false);
  // An injected request (light-my-request) hands out the caller's own buffer.
  const app = Fastify();
  let injected: boolean | null = null;
  app.post('/', async (request) => {
    injected = handsOutOwnCopies(request.raw);
    return 'ok';
  });
  await app.inject({ method: 'POST', url: '/', payload: 'x', headers: { 'content-type': 'text/plain' } });
  await app.close();
  assert.equal(injected, false);

  let real: boolean | null = null;
  const server = createServer((req: IncomingMessage, res) => {
    real = handsOutOwnCopies(req);
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve, reject) => {
    const req = httpRequest({ port, host: '127.0.0.1', method: 'POST' }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end('body');
  });
  server.close();
  assert.equal(real, true);
});
