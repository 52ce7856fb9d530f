/**
 * The uncaught exception is logged as Symfony logs it (issue 15, item 7): at ERROR on the
 * "request" channel, `Uncaught exception <Class>: "<message>"`, and every record keeps its own
 * channel in the exception page's log table and the profiler's Logs panel.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { createApp, createLogger } from '../../src/index.ts';
import { testConfig } from '../../src/testing/index.ts';
import { BROWSER } from '../profiler/profiler-app.ts';

async function appLogging(env: Record<string, string>, routes: (app: FastifyInstance) => void = () => {}) {
  const lines: string[] = [];
  const config = testConfig({ LOG_LEVEL: 'debug', ...env });
  const logger = createLogger({ level: 'debug', captureRequestRecords: config.debug, destination: new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }) });
  const app = await createApp({ config, tls: null, logger });
  routes(app);
  await app.ready();
  return { app, lines };
}

test('debug: a 404 is logged at ERROR on "request"; the exception page and the Logs panel show that channel', async () => {
  const { app, lines } = await appLogging({});
  try {
    const page = await app.inject({ url: '/robots.txt', headers: { accept: BROWSER } });
    assert.equal(page.statusCode, 404);
    const row = /<tr><td>[\d:.]+<\/td><td class="level-error">error<\/td><td>request<\/td><td>Uncaught exception NotFoundHttpException: &quot;No route found for &quot;GET \/robots\.txt&quot;&quot;<\/td>/;
    assert.match(page.body, row);
    const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => String(l.msg).startsWith('Uncaught exception'));
    assert.equal(line?.level, 50);
    assert.equal(line?.channel, 'request');
    assert.equal(line?.msg, 'Uncaught exception NotFoundHttpException: "No route found for "GET /robots.txt""');
    await app.profiler!.settled();
    const logs = await app.inject({ url: `/_profiler/${page.headers['x-debug-token']}?panel=logs`, headers: { accept: BROWSER } });
    assert.match(logs.body, row);
  } finally {
    await app.close();
  }
});

test('production: a client error stays at info, a server error is an ERROR with the same message', async () => {
  const { app, lines } = await appLogging({ NODE_ENV: 'production', APP_DEBUG: '0', LOG_LEVEL: 'info' });
  try {
    await app.inject({ url: '/robots.txt' });
    const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => String(l.msg).startsWith('Uncaught exception'));
    assert.equal(line?.level, 30);
    assert.equal(line?.msg, 'Uncaught exception NotFoundHttpException: "No route found for "GET /robots.txt""');
  } finally {
    await app.close();
  }
});

test('a database outage: its last failures are told when the interval ends, not charged to the next outage', async (t) => {
  // Outages were logged on the next failure after each 10 s: the failures of an outage's last
  // interval were never told, until the next outage (days later, perhaps) opened with a line
  // counting them as its own ("39 requests answered 503" for its first one).
  const { app, lines } = await appLogging({ NODE_ENV: 'production', APP_DEBUG: '0', LOG_LEVEL: 'info' }, (app) =>
    app.get('/needs-db', async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    }),
  );
  const outageLines = () => lines.map((l) => String((JSON.parse(l) as { msg: unknown }).msg)).filter((m) => m.startsWith('Database unavailable'));
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: Date.now() });
  try {
    for (let i = 0; i < 5; i++) assert.equal((await app.inject({ url: '/needs-db' })).statusCode, 503);
    assert.deepEqual(outageLines(), ['Database unavailable (connect ECONNREFUSED 127.0.0.1:5432): 1 request answered 503 since the last report.']);
    t.mock.timers.tick(10_000);
    assert.deepEqual(outageLines().slice(1), ['Database unavailable (connect ECONNREFUSED 127.0.0.1:5432): 4 requests answered 503 since the last report.'], 'the rest of the outage, once its interval ended');
    t.mock.timers.tick(3_600_000);
    assert.equal((await app.inject({ url: '/needs-db' })).statusCode, 503);
    assert.deepEqual(outageLines().slice(2), ['Database unavailable (connect ECONNREFUSED 127.0.0.1:5432): 1 request answered 503 since the last report.'], 'the next outage counts only its own');
  } finally {
    t.mock.timers.reset();
    await app.close();
  }
});
