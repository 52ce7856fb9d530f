/**
 * A connection opened while large bodies are being answered is accepted, read and answered
 * between them, not after all of them. libuv accepts one connection per turn of the event loop,
 * and every body that ended in a turn used to be answered in that turn: under 100 connections
 * uploading 900 KB, up to 47 new connections waited in the listen queue for seconds, and one
 * request in fifty got no answer within 10 s. Large bodies are now handed on one per turn
 * (kernel/turn-queue.ts).
 *
 * The clients run in a worker thread, so that they send while the server's thread is held busy:
 * eight uploads on connections opened before, and one small GET on a connection opened then.
 * When the server's thread is free again, all of it is waiting at once.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { once } from 'node:events';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../src/index.ts';
import { testConfig } from '../../src/testing/test-config.ts';

const UPLOADS = 8;
/** Over the size handed on in a turn of its own (read-body.ts), and within a loopback socket's buffers. */
const BODY_BYTES = 100 * 1024;

let app: FastifyInstance;
let port: number;
/** Connections the server accepted. */
let accepted = 0;
/** What the server answered, in order. */
const answered: string[] = [];

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

before(async () => {
  app = await createApp({ config: testConfig({ PROFILER: '0' }), tls: null });
  app.post('/upload', async (request) => {
    // The work of a large body (parse, validate, store), held on the thread as such work is.
    busy(40);
    answered.push('upload');
    return { size: JSON.stringify(request.body).length };
  });
  app.get('/small', async () => {
    answered.push('small');
    return { ok: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  app.server.on('connection', () => accepted++);
  port = (app.server.address() as { port: number }).port;
});
after(() => app.close());

const CLIENTS = `
const { parentPort, workerData } = require('node:worker_threads');
const { connect } = require('node:net');
const { port, uploads, bodyBytes, sent } = workerData;
const body = JSON.stringify({ text: 'x'.repeat(bodyBytes) });
const request = (method, path, payload) => method + ' ' + path + ' HTTP/1.1\\r\\nHost: a.test\\r\\nContent-Type: application/json\\r\\nContent-Length: ' + Buffer.byteLength(payload) + '\\r\\n\\r\\n' + payload;
const answers = [];
function open() {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => resolve(socket));
    socket.setEncoding('latin1');
    socket.on('error', () => {});
  });
}
function answerOf(socket) {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (c) => { text += c; if (/\\r\\n\\r\\n[\\s\\S]*\\}/.test(text)) { socket.destroy(); resolve(text.slice(9, 12)); } });
  });
}
(async () => {
  const sockets = [];
  for (let i = 0; i < uploads; i++) sockets.push(await open());
  parentPort.postMessage('ready');
  parentPort.once('message', async () => {
    const waits = sockets.map((s) => { s.write(request('POST', '/upload', body)); return answerOf(s); });
    // Opened after the uploads were sent: it waits in the listen queue behind them.
    const small = await open();
    // Told once the GET is with the kernel: the server's thread is held until then.
    small.write(request('GET', '/small', ''), () => Atomics.store(sent, 0, 1));
    const statuses = await Promise.all([...waits, answerOf(small)]);
    parentPort.postMessage(statuses);
  });
})();
`;

test('a connection opened during a burst of large bodies is answered before the burst ends', async () => {
  const sent = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(CLIENTS, { eval: true, workerData: { port, uploads: UPLOADS, bodyBytes: BODY_BYTES, sent } });
  try {
    assert.equal((await once(worker, 'message'))[0], 'ready');
    // Connected is not accepted: the server takes one connection from its listen queue per turn.
    while (accepted < UPLOADS) await new Promise((resolve) => setImmediate(resolve));
    const done = once(worker, 'message');
    worker.postMessage('go');
    // Held while the worker sends (on a loaded machine it may be slow to run): every body and the
    // new connection are waiting when the thread is free again.
    const until = performance.now() + 10_000;
    while (Atomics.load(sent, 0) === 0 && performance.now() < until);
    assert.equal(Atomics.load(sent, 0), 1, 'the worker sent its requests');
    busy(50);
    const [statuses] = (await done) as [string[]];
    assert.deepEqual(statuses, [...Array(UPLOADS).fill('200'), '200']);
    assert.equal(answered.length, UPLOADS + 1);
    const small = answered.indexOf('small');
    // Answered in one turn, all eight uploads would come first; one per turn, the new
    // connection is accepted in the first and read in the second.
    assert.ok(small >= 0 && small < UPLOADS - 2, `the small request was answered ${small + 1}th of ${answered.length}: ${answered.join(', ')}`);
  } finally {
    await worker.terminate();
  }
});
