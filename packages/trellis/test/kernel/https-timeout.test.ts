/**
 * REQUEST_TIMEOUT over TLS (issue 14, item 5): the HTTP/1.1 fallback of the HTTP/2 server takes
 * the same whole-request deadline as plain HTTP; Node's defaults there were 60 s for headers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/index.ts';
import { testConfig } from '../../src/testing/index.ts';

test('headers dribbled over TLS are cut at REQUEST_TIMEOUT with a 408', async (t) => {
  const varDir = mkdtempSync(join(tmpdir(), 'trellis-tls-timeout-'));
  const app = await createApp({ config: testConfig({ HTTPS: '1', PROFILER: '0', REQUEST_TIMEOUT: '2s' }), varDir });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.after(async () => {
    await app.close();
    rmSync(varDir, { recursive: true, force: true });
  });
  const port = (app.server.address() as AddressInfo).port;
  const { closedAfter, answer } = await new Promise<{ closedAfter: number; answer: string }>((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] }, () => {
      const started = Date.now();
      const head = `GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ${'x'.repeat(300)}`;
      let i = 0;
      let answer = '';
      const timer = setInterval(() => {
        if (socket.writable && i < head.length) socket.write(head[i++]!);
      }, 100);
      socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ closedAfter: Date.now() - started, answer });
      });
    });
    socket.on('error', () => {});
    setTimeout(() => reject(new Error('not cut within 10 s')), 10_000).unref();
  });
  assert.match(answer, /^HTTP\/1\.1 408 /);
  assert.ok(closedAfter >= 1900 && closedAfter < 6000, `closed after ${closedAfter} ms`);
});
