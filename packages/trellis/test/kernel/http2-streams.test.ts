/**
 * HTTP/2 connections open at most 100 streams at once. A body waiting for BODY_MEMORY is paused,
 * but an HTTP/2 stream still takes in its flow-control window (64 KB): with Node's default of
 * 2^32 - 1 streams, one connection's 3,000 streams held 130 MB of bodies past a 150 KB budget
 * (found by the adversarial review). A client that opens more waits for streams to close
 * (RFC 9113 §5.1.2).
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

let app: FastifyInstance;
let varDir: string;
let url: string;

before(async () => {
  varDir = mkdtempSync(join(tmpdir(), 'trellis-h2-streams-'));
  app = await createApp({ config: testConfig({ HTTPS: '1', PROFILER: '0', BODY_MEMORY: '150k', REQUEST_TIMEOUT: '2s' }), varDir });
  app.post('/echo', async (request) => ({ length: JSON.stringify(request.body).length }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `https://localhost:${(app.server.address() as AddressInfo).port}`;
});
after(async () => {
  await app.close();
  rmSync(varDir, { recursive: true, force: true });
});

test('a connection is told it may open at most 100 streams at once', { timeout: 10_000 }, async () => {
  const session = http2.connect(url, { rejectUnauthorized: false });
  session.on('error', () => {});
  try {
    const settings = await new Promise<http2.Settings>((resolve) => session.once('remoteSettings', resolve));
    assert.equal(settings.maxConcurrentStreams, 100);
  } finally {
    session.destroy();
  }
});

test('a client opening 130 streams at once has 100 open at a time: the others wait their turn, and every one is answered', { timeout: 15_000 }, async () => {
  let open = 0;
  let most = 0;
  const onStream = (stream: http2.ServerHttp2Stream) => {
    most = Math.max(most, ++open);
    stream.once('close', () => open--);
  };
  app.server.on('stream', onStream);
  const session = http2.connect(url, { rejectUnauthorized: false });
  session.on('error', () => {});
  await new Promise((resolve) => session.once('remoteSettings', resolve));
  try {
    const statuses = await Promise.all(
      Array.from({ length: 130 }, () => {
        const stream = session.request({ ':method': 'POST', ':path': '/echo', 'content-type': 'application/json', 'content-length': '100000' });
        stream.on('error', () => {});
        // A body never finished: each stream ends at its deadline, 408.
        stream.write(`{"a":"${'x'.repeat(10_000)}`);
        let status = 0;
        stream.on('response', (h) => (status = Number(h[':status'])));
        stream.resume();
        return new Promise<number>((resolve) => stream.on('close', () => resolve(status)));
      }),
    );
    assert.deepEqual([...new Set(statuses)], [408]);
    assert.equal(most, 100);
    assert.equal(app.trellis.bodyBudget.used, 0);
    assert.equal(app.trellis.bodyBudget.waiting, 0);
  } finally {
    app.server.off('stream', onStream);
    session.destroy();
  }
});
