import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import Fastify from 'fastify';
import { ListenError, serve, shutdownGraceMs } from './serve.ts';
import { loadConfig } from './config.ts';

test('shutdown waits longer than a query may take, and at least 10 s', () => {
  assert.equal(shutdownGraceMs(loadConfig({})), 12_000, 'the default query timeout is 10 s');
  assert.equal(shutdownGraceMs(loadConfig({ DATABASE_QUERY_TIMEOUT: '2s' })), 10_000);
  assert.equal(shutdownGraceMs(loadConfig({ DATABASE_QUERY_TIMEOUT: '30s' })), 32_000);
});

/** An app whose onClose hooks count how often they ran (its database, its profiler thread). */
function countingApp() {
  const app = Fastify();
  const closed = { count: 0 };
  app.addHook('onClose', async () => void closed.count++);
  return { app, closed };
}

test('a port another process holds: ListenError naming HOST and PORT, and the app closed first', async (t) => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  t.after(() => holder.close());
  const port = (holder.address() as { port: number }).port;
  const { app, closed } = countingApp();
  const config = loadConfig({ PORT: String(port) });
  await assert.rejects(serve(app, config), (e: Error) => e instanceof ListenError && e.message === `127.0.0.1:${port} is already in use by another process (HOST, PORT).`);
  assert.equal(closed.count, 1, 'what the app opened is closed, so nothing keeps the process alive');
});

test('a HOST no resolver knows: ListenError naming HOST, and the app closed first', async () => {
  const { app, closed } = countingApp();
  // .invalid never resolves (RFC 6761 §6.4).
  const config = loadConfig({ HOST: 'no-such-host.invalid', PORT: '0' });
  await assert.rejects(serve(app, config), (e: Error) => e instanceof ListenError && e.message === 'no-such-host.invalid is not a host name this machine can resolve (HOST).');
  assert.equal(closed.count, 1);
});
