/**
 * A client may pipeline requests (RFC 9112 §9.3.2), but one that sends thousands and reads
 * nothing must not make the server hold an answer for each: past MAX_PIPELINED requests in flight
 * on a connection, a request is answered 429 without being handled, then the connection closes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { pino } from 'pino';
import { createApp } from '../../src/index.ts';
import { MAX_PIPELINED } from '../../src/kernel/protocol-refusals.ts';
import { testConfig } from '../../src/testing/index.ts';

/** Writes `count` pipelined GETs at once, waits `pauseMs` before reading, reads until the server closes. */
function pipelined(port: number, count: number, pauseMs: number, keepAliveAfter = false): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.pause();
      socket.write('GET /hello HTTP/1.1\r\nHost: a.test\r\n\r\n'.repeat(count) + (keepAliveAfter ? '' : 'GET /hello HTTP/1.1\r\nHost: a.test\r\nConnection: close\r\n\r\n'));
      setTimeout(() => socket.resume(), pauseMs);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8').split(/(?=HTTP\/1\.1 )/)));
    socket.on('error', reject);
    setTimeout(() => (socket.destroy(), reject(new Error('no close within 10 s'))), 10_000).unref();
  });
}

test('past the cap: a 429 in problem+json, the connection closed; within it, every answer', async (t) => {
  let handled = 0;
  const lines: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
  const app = await createApp({ config: testConfig({ NODE_ENV: 'production', PROFILER: '0' }), tls: null, logger });
  app.get('/hello', async () => {
    handled++;
    return { hello: 'world' };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.after(() => app.close());
  const port = (app.server.address() as { port: number }).port;

  const flood = await pipelined(port, 3000, 300);
  assert.equal(flood.length, MAX_PIPELINED + 1, 'the answers in flight, then the refusal, then nothing');
  for (const answer of flood.slice(0, MAX_PIPELINED)) assert.match(answer, /^HTTP\/1\.1 200 OK\r\n[\s\S]*\{"hello":"world"\}$/);
  const refusal = flood.at(-1)!;
  assert.match(refusal, /^HTTP\/1\.1 429 Too Many Requests\r\n/);
  assert.match(refusal, /\r\ncontent-type: application\/problem\+json\r\n/i);
  assert.match(refusal, /\r\nconnection: close\r\n/i);
  const body = JSON.parse(refusal.slice(refusal.indexOf('\r\n\r\n') + 4)) as { status: number; code: string; detail: string };
  assert.deepEqual(body, { type: 'about:blank', title: 'Too Many Requests', status: 429, detail: `Too many requests pipelined on one connection: at most ${MAX_PIPELINED} are answered at a time; read the answers before sending more.`, code: 'too_many_pipelined_requests' });
  assert.ok(handled <= MAX_PIPELINED + 1, `handled ${handled} of 3,000`);
  // One warning for the burst, not one per refused request.
  const warnings = lines.map((l) => JSON.parse(l) as { msg: string; ip: string; code: string }).filter((l) => l.code === 'too_many_pipelined_requests');
  assert.equal(warnings.length, 1, lines.join(''));
  assert.equal(warnings[0]!.msg, `A connection pipelined more than ${MAX_PIPELINED} requests without reading the answers: 1 request refused (429) since the last report, the connection closed.`);
  assert.equal(warnings[0]!.ip, '127.0.0.1');

  // Pipelining within the cap is served whole, and the connection stays usable until asked to close.
  const polite = await pipelined(port, MAX_PIPELINED - 1, 0);
  assert.equal(polite.length, MAX_PIPELINED);
  for (const answer of polite) assert.match(answer, /^HTTP\/1\.1 200 OK\r\n/);
});
