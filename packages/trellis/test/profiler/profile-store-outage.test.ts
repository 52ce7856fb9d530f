/**
 * The profile store (Redis) going away (issue 14, item 2): requests are unaffected, the loss is
 * logged once per interval with a count (not a stack per profile), the profiler's pages answer
 * 503 with a clear message, and recording resumes by itself when the store is back.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { createApp, createLogger } from '../../src/index.ts';
import { redisForTests, tcpProxy, testConfig } from '../../src/testing/index.ts';
import { BROWSER } from './profiler-app.ts';
import { MemoryProfileStorage } from '../../src/profiler/storage/memory-profile-storage.ts';

const redis = await redisForTests();

/** Removes what a test stored under its own key prefix. */
async function dropKeys(prefix: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const client = new Redis(redis.url!);
  const keys = await client.keys(`${prefix}*`);
  if (keys.length > 0) await client.del(...keys);
  client.disconnect();
}

describe('Redis profile store outage', { skip: redis.skip }, () => {
  test('cut under traffic: requests 200, a few log lines, pages 503, recording resumes', async () => {
    const proxy = await tcpProxy(redis.url!, 6379);
    const prefix = `trellis-outage-${randomBytes(4).toString('hex')}:`;
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', captureRequestRecords: true, destination: new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }) });
    const app = await createApp({ config: testConfig({ LOG_LEVEL: 'info', PROFILER_DSN: `${proxy.url}?prefix=${prefix}` }), tls: null, logger });
    app.get('/hello', async () => ({ hello: 'world' }));
    await app.ready();
    try {
      const before = await app.inject({ url: '/hello' });
      assert.equal(before.statusCode, 200);
      await app.profiler!.settled();
      assert.equal((await app.inject({ url: `/_profiler/${before.headers['x-debug-token']}.json` })).statusCode, 200);

      proxy.cut();
      const statuses = [];
      for (let i = 0; i < 200; i++) statuses.push((await app.inject({ url: '/hello' })).statusCode);
      assert.deepEqual(new Set(statuses), new Set([200]), 'requests are unaffected');
      await app.profiler!.settled();

      for (const [url, accept] of [['/_profiler/search.json', 'application/json'], ['/_profiler/latest', BROWSER], ['/_profiler/', BROWSER], [`/_profiler/${before.headers['x-debug-token']}`, BROWSER]] as const) {
        const page = await app.inject({ url, headers: { accept } });
        assert.equal(page.statusCode, 503, `${url}: ${page.body.slice(0, 200)}`);
        assert.equal(page.headers['retry-after'], '5');
        assert.match(page.body, /The profile store is unavailable \(.+\); requests are served but not recorded until it is back\./);
      }

      const storeLines = lines.filter((l) => /Profile store unavailable/.test(l));
      assert.ok(storeLines.length >= 1 && storeLines.length <= 3, `a few lines for the outage, got ${storeLines.length}`);
      assert.match(storeLines[0]!, /Profile store unavailable: \d[\d,]* profiles? dropped since the last report/);
      const stacks = lines.filter((l) => /"stack":"[^"]/.test(l)).length;
      assert.ok(stacks <= 1, `at most one stack for the whole outage, got ${stacks}:\n${lines.filter((l) => /"stack":"[^"]/.test(l)).map((l) => l.slice(0, 400)).join('\n')}`);

      await proxy.restore();
      let recorded = false;
      for (let i = 0; i < 60 && !recorded; i++) {
        const r = await app.inject({ url: '/hello' });
        await app.profiler!.settled();
        recorded = (await app.inject({ url: `/_profiler/${r.headers['x-debug-token']}.json` })).statusCode === 200;
        if (!recorded) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(recorded, true, 'recording resumed by itself');
    } finally {
      await app.close();
      await proxy.restore().catch(() => {});
      await dropKeys(prefix);
      await proxy.close();
    }
  });

  test('partitioned (no reply, nothing closed): a shutdown drops what it cannot store and ends well within its grace', { timeout: 30_000 }, async () => {
    // Writes waited for ever on a connection that no longer answered, and so did QUIT: closing
    // the app with profiles queued never ended (serve's 10 s grace then exited 1), and with none
    // queued it took 11 s and rejected with "Command timed out".
    const proxy = await tcpProxy(redis.url!, 6379);
    const prefix = `trellis-partition-${randomBytes(4).toString('hex')}:`;
    const app = await createApp({ config: testConfig({ LOG_LEVEL: 'silent', PROFILER_DSN: `${proxy.url}?prefix=${prefix}` }), tls: null });
    app.get('/hello', async () => ({ hello: 'world' }));
    await app.ready();
    let closed: Promise<unknown> = Promise.resolve();
    try {
      assert.equal((await app.inject({ url: '/hello' })).statusCode, 200);
      await app.profiler!.settled();
      proxy.stall();
      for (let i = 0; i < 5; i++) assert.equal((await app.inject({ url: '/hello' })).statusCode, 200);
      const started = Date.now();
      closed = app.close();
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        closed.then(() => 'closed', (error: Error) => `rejected: ${error.message}`),
        new Promise<string>((resolve) => (timer = setTimeout(() => resolve('hung'), 15_000))),
      ]).finally(() => clearTimeout(timer));
      assert.equal(outcome, 'closed');
      const took = Date.now() - started;
      assert.ok(took < 9_000, `closed in ${took} ms, within serve's 10 s grace`);
    } finally {
      await proxy.restore().catch(() => {});
      await closed.catch(() => {});
      await dropKeys(prefix);
      await proxy.close();
    }
  });
});

test('a store whose writes never finish: the pages wait a bounded time for the queue, then answer from what is stored', async () => {
  // The store reads, but every write hangs (a Redis cut under load drains its queue no faster).
  const stuck = new (class extends MemoryProfileStorage {
    override write(): Promise<void> {
      return new Promise(() => {});
    }
  })({ maxProfiles: 100, ttlSeconds: 3600 });
  const app = await createApp({ config: testConfig({}), tls: null, profiler: { storage: stuck } });
  app.get('/hello', async () => ({ hello: 'world' }));
  await app.ready();
  try {
    assert.equal((await app.inject({ url: '/hello' })).statusCode, 200);
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), 15_000)));
    const page = await Promise.race([app.inject({ url: '/_profiler/search.json' }), hung]).finally(() => clearTimeout(timer));
    assert.notEqual(page, 'hung', 'the search page waited for a queue that never drains');
    if (page === 'hung') return;
    assert.equal(page.statusCode, 200);
    assert.deepEqual((page.json() as { count: number }).count, 0);
  } finally {
    // Closing waits for the queue as the handle does: a store that never writes is not waited for here.
    void app.close();
  }
});
