import { createHash } from 'node:crypto';
/**
 * The live view (issue 17, item 2): main requests reach an open event stream as they finish,
 * over a real socket; the page and its stream are gated and never profiled; streams are bounded,
 * resumed with Last-Event-ID and ended when the app closes. With profiles in Redis, a request on
 * one app appears in the stream of another sharing the store.
 */
import { after, before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryProfileStorage } from '../../src/profiler/storage/memory-profile-storage.ts';
import type { FastifyInstance } from 'fastify';
import { redisForTests } from '../../src/testing/services.ts';
import { profilerApp } from './profiler-app.ts';
import { forPath, SseClient } from './sse-client.ts';

const redis = await redisForTests();

async function listening(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

const connected = (client: SseClient) => client.next((i) => i.comment === 'connected');

/**
 * A stream once the server has seen the ones a test closed go (their 'close' reaches it a moment
 * after the client's): 503s are retried, a bounded number of times.
 */
async function openWhenFree(port: number): Promise<SseClient> {
  for (let attempt = 0; ; attempt++) {
    const client = await SseClient.open(port, '/_profiler/live/events');
    if (client.response.statusCode !== 503 || attempt === 200) return client;
    client.close();
    await delay(10);
  }
}

describe('live view, one process (memory store)', () => {
  let app: FastifyInstance;
  let port: number;
  before(async () => {
    app = await profilerApp({}, { live: { maxStreams: 2, heartbeatMs: 50 } });
    port = await listening(app);
  });
  after(() => app.close());

  test('a request made after connecting arrives as an event naming its profile', async () => {
    const client = await openWhenFree(port);
    try {
      assert.equal(client.response.statusCode, 200);
      assert.equal(client.response.headers['content-type'], 'text/event-stream; charset=utf-8');
      assert.equal(client.response.headers['cache-control'], 'no-cache, private');
      assert.equal(client.response.headers['x-debug-token'], undefined, 'the stream is not profiled');
      assert.equal(client.response.headers['x-frame-options'], 'DENY');
      await connected(client);
      assert.equal(client.items.find((i) => i.retry !== undefined)?.retry, '2000');
      const res = await fetch(`http://127.0.0.1:${port}/hello?live=1`);
      const token = res.headers.get('x-debug-token');
      const event = await client.next(forPath('/hello?live=1'));
      const data = JSON.parse(event.data!);
      assert.equal(event.id, token);
      assert.equal(data.token, token);
      assert.equal(data.method, 'GET');
      assert.equal(data.statusCode, 200);
      assert.equal(data.parent, null);
      assert.equal(data.link, `/_profiler/${token}`);
      assert.equal(data.url, `http://127.0.0.1:${port}/hello?live=1`);
      assert.match(data.formattedTime, /^\d\d-[A-Z][a-z]{2}-\d{4} \d\d:\d\d:\d\d$/);
    } finally {
      client.close();
    }
  });

  test('a sub-request is not an event of its own; its main request is, with its status', async () => {
    const client = await openWhenFree(port);
    try {
      await connected(client);
      await fetch(`http://127.0.0.1:${port}/no-such-page-live`);
      await fetch(`http://127.0.0.1:${port}/hello?after-404`);
      await client.next(forPath('/hello?after-404'));
      const events = client.items.filter((i) => i.data?.includes('no-such-page-live')).map((i) => JSON.parse(i.data!));
      assert.deepEqual(events.map((e) => [e.statusCode, e.parent]), [[404, null]]);
    } finally {
      client.close();
    }
  });

  test('a secret in the query is redacted in the event, as in the stored profile', async () => {
    const client = await openWhenFree(port);
    try {
      await connected(client);
      await fetch(`http://127.0.0.1:${port}/hello?password=live-canary-81f2&x=1`);
      const event = await client.next(forPath('&x=1'));
      assert.equal(event.data!.includes('live-canary-81f2'), false, event.data);
      assert.equal(JSON.parse(event.data!).url, `http://127.0.0.1:${port}/hello?password=[redacted]&x=1`);
    } finally {
      client.close();
    }
  });

  test('idle streams get heartbeat comments', async () => {
    const client = await openWhenFree(port);
    try {
      assert.equal((await client.next((i) => i.comment === 'heartbeat')).comment, 'heartbeat');
    } finally {
      client.close();
    }
  });

  test('Last-Event-ID: a reconnecting client is sent what finished after the event it saw last, oldest first', async () => {
    const tokens: string[] = [];
    for (const n of [1, 2, 3]) tokens.push((await fetch(`http://127.0.0.1:${port}/hello?resume=${n}`)).headers.get('x-debug-token')!);
    await app.profiler!.settled();
    const client = await SseClient.open(port, '/_profiler/live/events', { 'last-event-id': tokens[0]! });
    try {
      await client.next(forPath('resume=3'));
      const resent = client.items.filter((i) => i.data?.includes('resume=')).map((i) => i.id);
      assert.deepEqual(resent, [tokens[1], tokens[2]]);
    } finally {
      client.close();
    }
  });

  test('odd Last-Event-ID values resend nothing and break nothing', async () => {
    for (const odd of ['zzzzzz', '../../etc', 'ffffff', '']) {
      const client = await SseClient.open(port, '/_profiler/live/events', { 'last-event-id': odd });
      try {
        assert.equal(client.response.statusCode, 200, odd);
        await connected(client);
        await fetch(`http://127.0.0.1:${port}/hello?odd=${encodeURIComponent(odd)}`);
        await client.next(forPath(`odd=${encodeURIComponent(odd)}`));
        assert.deepEqual(client.items.filter((i) => i.data !== undefined).length, 1, odd);
      } finally {
        client.close();
      }
    }
  });

  test('streams are bounded: past the limit, a 503 with its exact message and Retry-After', async () => {
    const open = [await openWhenFree(port), await openWhenFree(port)];
    try {
      await Promise.all(open.map(connected));
      const refused = await fetch(`http://127.0.0.1:${port}/_profiler/live/events`, { headers: { accept: 'application/json' } });
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get('retry-after'), '10');
      assert.equal(((await refused.json()) as { detail: string }).detail, 'Too many live views are open (2); close one and try again.');
    } finally {
      for (const c of open) c.close();
    }
    // A closed stream frees its place.
    await Promise.all(open.map((c) => c.ended));
    const again = await openWhenFree(port);
    assert.equal(again.response.statusCode, 200);
    again.close();
    await again.ended;
  });

  test('many streams opened at once: exactly as many as the bound get one', async () => {
    const clients = await Promise.all(Array.from({ length: 6 }, () => SseClient.open(port, '/_profiler/live/events', { accept: 'application/json' })));
    try {
      assert.deepEqual(clients.map((c) => c.response.statusCode).sort(), [200, 200, 503, 503, 503, 503]);
    } finally {
      for (const c of clients) c.close();
      await Promise.all(clients.map((c) => c.ended));
    }
    // Both places are free again for the tests after this one.
    const [a, b] = [await openWhenFree(port), await openWhenFree(port)];
    assert.deepEqual([a.response.statusCode, b.response.statusCode], [200, 200]);
    a.close();
    b.close();
    await Promise.all([a.ended, b.ended]);
  });

  test('the page, its script and its stream are never profiled', async () => {
    const client = await openWhenFree(port);
    await connected(client);
    await fetch(`http://127.0.0.1:${port}/_profiler/live`);
    await fetch(`http://127.0.0.1:${port}/_profiler/live.js`);
    await fetch(`http://127.0.0.1:${port}/hello?unprofiled-check`);
    await client.next(forPath('unprofiled-check'));
    client.close();
    await app.profiler!.settled();
    const profiled = await app.profiler!.storage.find({ url: '/_profiler', limit: 100 });
    assert.deepEqual(profiled.map((s) => s.url), []);
    assert.equal(client.items.filter((i) => i.data !== undefined && JSON.parse(i.data).url.includes('/_profiler')).length, 0);
  });

  test('the page loads its one script from the profiler, allowed by its hash, under a CSP without inline script', async () => {
    const page = await fetch(`http://127.0.0.1:${port}/_profiler/live`);
    assert.equal(page.status, 200);
    const csp = page.headers.get('content-security-policy')!;
    // Only the profiler's two scripts by hash (the copy script, the live script), never 'self'.
    assert.match(csp, /(^|; )script-src 'sha256-[A-Za-z0-9+/]+=*' 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
    assert.doesNotMatch(csp, /'self'[^;]*;.*script-src|script-src[^;]*'self'/);
    const served = await (await fetch(`http://127.0.0.1:${port}/_profiler/live.js`)).text();
    assert.ok(csp.includes(`'sha256-${createHash('sha256').update(served).digest('base64')}'`), 'the hash is that of the script served');
    assert.match(csp, /(^|; )connect-src 'self'(;|$)/);
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    const body = await page.text();
    assert.match(body, /<script src="\/_profiler\/live\.js" integrity="sha256-[A-Za-z0-9+/]+=*" defer><\/script>/);
    assert.equal((body.match(/<script/g) ?? []).length, 1);
    assert.doesNotMatch(body, /\son[a-z]+="/);
    const script = await fetch(`http://127.0.0.1:${port}/_profiler/live.js`);
    assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.match(await script.text(), /new EventSource\('\/_profiler\/live\/events'\)/);
  });

  test('the gate: a client outside PROFILER_ALLOW gets the 404 of an unknown path, for the page, script and stream', async () => {
    for (const url of ['/_profiler/live', '/_profiler/live.js', '/_profiler/live/events']) {
      const res = await app.inject({ url, remoteAddress: '192.0.2.7', headers: { accept: 'application/json' } });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().detail, `No route found for "GET ${url}"`);
      assert.equal(res.headers['content-type']?.includes('event-stream'), false);
    }
    const head = await app.inject({ method: 'HEAD', url: '/_profiler/live/events', remoteAddress: '192.0.2.7' });
    assert.equal(head.statusCode, 404);
  });
});

test('app.close() ends open streams instead of waiting for them', async () => {
  const app = await profilerApp();
  const port = await listening(app);
  const client = await SseClient.open(port, '/_profiler/live/events');
  await connected(client);
  await app.close();
  await client.ended;
  assert.equal(client.response.complete, true, 'the stream was ended, not cut');
});

test('a SQLite store (profiles stored on the profiler thread): the request thread feeds the live view', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-live-'));
  const app = await profilerApp({ PROFILER_DSN: `sqlite:${join(dir, 'profiler.db')}` });
  try {
    const port = await listening(app);
    const client = await SseClient.open(port, '/_profiler/live/events');
    await connected(client);
    const token = (await fetch(`http://127.0.0.1:${port}/hello?sqlite=1`)).headers.get('x-debug-token');
    assert.equal((await client.next(forPath('/hello?sqlite=1'))).id, token);
    client.close();
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a shared feed that cannot subscribe (its store away): 503 saying so, no stream', async () => {
  const store = new MemoryProfileStorage({ maxProfiles: 100, ttlSeconds: 3600 });
  const feed = { subscribe: () => Promise.reject(new Error('connection refused')), close: async () => {} };
  const app = await profilerApp({}, { storage: Object.assign(Object.create(store) as MemoryProfileStorage, { openFeed: () => feed }) });
  try {
    const res = await app.inject({ url: '/_profiler/live/events', headers: { accept: 'application/json' } });
    assert.equal(res.statusCode, 503);
    assert.equal(res.headers['retry-after'], '5');
    assert.equal(res.json().detail, 'The profile store is unavailable (connection refused); requests are served but not recorded until it is back.');
  } finally {
    await app.close();
  }
});

describe('live view across processes (Redis store)', { skip: redis.skip }, () => {
  const prefix = `trellis-test:profiler-live:${process.pid}:`;
  let one: FastifyInstance;
  let two: FastifyInstance;
  let portOne: number;
  let portTwo: number;
  before(async () => {
    const env = { PROFILER_DSN: `${redis.url}?prefix=${prefix}` };
    one = await profilerApp(env);
    two = await profilerApp(env);
    portOne = await listening(one);
    portTwo = await listening(two);
  });
  after(async () => {
    await one.profiler?.storage.purge();
    await Promise.all([one.close(), two.close()]);
  });

  test("a request on one app appears in the other's stream, and in its own", async () => {
    const onTwo = await SseClient.open(portTwo, '/_profiler/live/events');
    const onOne = await SseClient.open(portOne, '/_profiler/live/events');
    try {
      await Promise.all([connected(onTwo), connected(onOne)]);
      const token = (await fetch(`http://127.0.0.1:${portOne}/hello?shared=1`)).headers.get('x-debug-token');
      const there = await onTwo.next(forPath('/hello?shared=1'));
      assert.equal(there.id, token);
      assert.equal(JSON.parse(there.data!).link, `/_profiler/${token}`);
      const here = await onOne.next(forPath('/hello?shared=1'));
      assert.equal(here.id, token);
      // Once: the store's publication is the only source, not also this process's own feed.
      await fetch(`http://127.0.0.1:${portOne}/hello?shared=2`);
      await onOne.next(forPath('/hello?shared=2'));
      assert.equal(onOne.items.filter((i) => i.id === token).length, 1);
      // And the profile it links to opens on the other app.
      const profile = await fetch(`http://127.0.0.1:${portTwo}/_profiler/${token}.json`);
      assert.equal(((await profile.json()) as { url: string }).url, `http://127.0.0.1:${portOne}/hello?shared=1`);
    } finally {
      onTwo.close();
      onOne.close();
    }
  });
});
