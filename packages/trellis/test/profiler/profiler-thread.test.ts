/**
 * Recording through the profiler thread: an app whose PROFILER_DSN names a SQLite file or Redis
 * builds and stores its profiles on the profiler thread (thread-profile-sink.ts), and reads them
 * back on the request thread for its pages.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { redisForTests } from '../../src/testing/services.ts';
import type { DataCollector } from '../../src/profiler/index.ts';
import { setTimeout as delay } from 'node:timers/promises';
import { BROWSER, profilerApp } from './profiler-app.ts';

const dir = mkdtempSync(join(tmpdir(), 'trellis-profiler-thread-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const redis = await redisForTests();
const CANARY = 'tHrEaD-canary-0b7d55';

/** A collector the app adds: it runs on the request thread and sees what every collector sees. */
const routeCollector: DataCollector<{ route: string | null; secret: unknown }> = {
  name: 'route-echo',
  collect: (ctx) => ({ route: ctx.request.route, secret: ctx.redaction.fields({ password: (ctx.request.body as { password?: unknown } | undefined)?.password }).password }),
};

const stores = [
  { name: 'SQLite', dsn: `sqlite:${join(dir, 'profiler.db')}`, skip: false as const },
  { name: 'Redis', dsn: `${redis.url}?prefix=trellis-test:profiler-thread:${process.pid}:`, skip: redis.skip },
];

for (const store of stores) {
  describe(`profiler thread, ${store.name} store`, { skip: store.skip }, () => {
    let app: FastifyInstance;
    before(async () => {
      app = await profilerApp({ PROFILER_DSN: store.dsn }, { collectors: [routeCollector] });
    });
    after(async () => {
      await app.profiler?.storage.purge();
      await app.close();
    });

    test('one failing request: two profiles, linked, and "2 results found" for its URL', async () => {
      const res = await app.inject({ url: `/robots.txt?run=${store.name}`, headers: { accept: BROWSER } });
      assert.equal(res.statusCode, 404);
      const token = res.headers['x-debug-token'] as string;
      await app.profiler!.settled();
      const listing = await app.inject({ url: `/_profiler/search?url=${encodeURIComponent(`run=${store.name}`)}` });
      assert.match(listing.body, /<h2 class="pf-results-count">2 results found<\/h2>/);
      const parent = (await app.inject({ url: `/_profiler/${token}.json` })).json();
      assert.equal(parent.statusCode, 404);
      assert.equal(parent.children.length, 1);
      const child = (await app.inject({ url: `/_profiler/${parent.children[0]}.json` })).json();
      assert.equal(child.parent, token);
      // Stored without the response and exception it shares with its parent, put back when read.
      const childRecord = await app.profiler!.storage.read(parent.children[0]);
      assert.ok(childRecord?.data.endsWith(',"inherits":true}'), childRecord?.data.slice(-80));
      assert.ok(childRecord!.data.length < (await app.profiler!.storage.read(token))!.data.length / 2);
      assert.deepEqual(child.collectors.response.body, parent.collectors.response.body);
      assert.deepEqual(child.collectors.exception.chain.map((e: { class: string }) => e.class), ['NotFoundHttpException', 'ResourceNotFoundException']);
      assert.equal((await app.inject({ url: '/_profiler/latest' })).statusCode, 200);
    });

    test('secrets are redacted on the way: the canary is in no stored profile or page', async () => {
      const res = await app.inject({
        method: 'POST',
        url: `/echo?token=${CANARY}`,
        headers: { authorization: `Bearer ${CANARY}`, 'content-type': 'application/json' },
        payload: { title: 'Dune', password: CANARY },
      });
      // The firewall refuses the made-up token; the refusal is recorded like any request.
      assert.equal(res.statusCode, 401);
      const token = res.headers['x-debug-token'] as string;
      await app.profiler!.settled();
      const record = await app.profiler!.storage.read(token);
      assert.ok(record?.data.startsWith('{"children":'), 'built and redacted before storage');
      assert.equal(JSON.stringify(record).includes(CANARY), false);
      const stored = await app.profiler!.read(token);
      assert.ok(stored, 'the profile was stored');
      assert.equal(JSON.stringify(stored).includes(CANARY), false);
      assert.equal((stored.collectors.request as { headers: Record<string, string> }).headers.authorization, '[redacted]');
      const page = await app.inject({ url: `/_profiler/${token}` });
      assert.equal(page.statusCode, 200);
      assert.equal(page.body.includes(CANARY), false);
    });

    test('a request with no secret is stored as its snapshot, and its profile built when read', async () => {
      const res = await app.inject({ url: `/hello?page=2&run=${store.name}`, headers: { accept: 'application/json' } });
      assert.equal(res.statusCode, 200);
      const token = res.headers['x-debug-token'] as string;
      await app.profiler!.settled();
      const record = await app.profiler!.storage.read(token);
      assert.ok(record?.data.startsWith(`{"snapshot":[3,"${token}",null,`), record?.data.slice(0, 80));
      // The response headers crossed as the block written to the socket, and were appended read.
      assert.ok(record?.data.includes(`"x-debug-token":"${token}"`), 'the headers are in the stored text as an object');
      assert.equal(record?.url, `http://localhost:80/hello?page=2&run=${store.name}`);
      const json = (await app.inject({ url: `/_profiler/${token}.json` })).json();
      assert.equal(json.token, token);
      assert.deepEqual(json.collectors.request.query, { page: '2', run: store.name });
      assert.equal(json.collectors.response.headers['x-debug-token'], token);
      // As sent: the fields Node adds itself are there too.
      assert.equal(json.collectors.response.headers['content-type'], res.headers['content-type']);
      assert.equal(json.collectors.response.headers.date, res.headers.date);
      assert.deepEqual(json.collectors['route-echo'], { route: '/hello' });
      assert.deepEqual(Object.keys(json.collectors), ['request', 'response', 'time', 'cpu', 'exception', 'logs', 'db', 'security', 'router', 'api', 'http_client', 'events', 'route-echo']);
    });

    test('a large upload: its redacted beginning crosses beside the snapshot and is kept, its secret nowhere', async () => {
      const note = `${'n'.repeat(400 * 1024)}-end`;
      const payload = JSON.stringify({ password: CANARY, note });
      const res = await app.inject({ method: 'POST', url: `/echo?run=large-${store.name}`, headers: { 'content-type': 'application/json' }, payload });
      assert.equal(res.statusCode, 200);
      await app.profiler!.settled();
      const json = (await app.inject({ url: `/_profiler/${res.headers['x-debug-token']}.json` })).json();
      const body = json.collectors.request.body as { text: string; size: number; truncated: boolean };
      assert.equal(body.size, Buffer.byteLength(payload), 'the size as received');
      assert.equal(body.truncated, true);
      assert.equal(body.text.length, 64 * 1024, 'cut at PROFILER_MAX_BODY (ASCII: one byte a character)');
      assert.ok(body.text === `{\n  "password": "[redacted]",\n  "note": "${'n'.repeat(64 * 1024 - 41)}`, body.text.slice(0, 60));
      // The echo is cut at 64 KB as sent, then its password redacted (ten characters shorter).
      const echo = json.collectors.response.body.text as string;
      assert.equal(echo.length, 64 * 1024 - 10);
      assert.ok(echo === `{"password":"[redacted]","note":"${'n'.repeat(64 * 1024 - 43)}`, echo.slice(0, 60));
      const stored = await app.profiler!.storage.read(res.headers['x-debug-token'] as string);
      assert.equal(stored?.data.includes(CANARY), false, 'the secret is in no stored panel, the echoed response and the log record included');
      // The route logs the body it received: the record keeps its strings' beginnings only.
      assert.ok(stored!.data.length < 3 * 64 * 1024, `stored ${stored!.data.length} characters`);
      assert.match(json.collectors.logs.records.find((r: { channel: string }) => r.channel === 'app').context.received.note, /^n{4096}… \[409,604 characters\]$/);
    });

    test("the app's own collectors run too, and their data is stored redacted", async () => {
      const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: { password: CANARY } });
      const token = res.headers['x-debug-token'] as string;
      await app.profiler!.settled();
      const stored = await app.profiler!.read(token);
      assert.deepEqual(stored?.collectors['route-echo'], { route: '/echo', secret: '[redacted]' });
    });
  });
}

describe('profiler thread, values JSON or a clone refuse', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await profilerApp({ PROFILER_DSN: `sqlite:${join(dir, 'uncloneable.db')}` }, {}, (a) => {
      a.get('/log-a-bigint', async (request) => {
        request.log.info({ id: 10n ** 20n, book: 'Dune' }, 'a record with a BigInt in it');
        return { ok: true };
      });
      a.get('/log-a-function', async (request) => {
        request.log.info({ callback: () => 1, book: 'Dune' }, 'a record with a function in it');
        return { ok: true };
      });
      // A parser that hands the stream on, as upload and proxy routes do.
      a.addContentTypeParser('application/x-stream', (_request, payload, done) => done(null, payload));
      a.post('/stream', async () => ({ ok: true }));
    });
  });
  after(() => app.close());

  /** Requests `url` (answered 200) and returns the context of its stored log record `message`. */
  async function loggedContext(url: string, message: string): Promise<unknown> {
    const res = await app.inject({ url });
    assert.equal(res.statusCode, 200);
    await app.profiler!.settled();
    const stored = await app.profiler!.read(res.headers['x-debug-token'] as string);
    const records = (stored?.collectors.logs as { records: { message: string; context: unknown }[] }).records;
    return records.find((r) => r.message === message)?.context;
  }

  test('a function in a log record: the request is answered and profiled, the function dropped', async () => {
    assert.deepEqual(await loggedContext('/log-a-function', 'a record with a function in it'), { book: 'Dune' });
  });

  test('a BigInt in a log record: the request is answered and profiled, the BigInt kept as text', async () => {
    assert.deepEqual(await loggedContext('/log-a-bigint', 'a record with a BigInt in it'), { id: '100000000000000000000', book: 'Dune' });
  });

  test('a body that is a stream: answered and profiled, the body noted as unread with its declared size', async () => {
    const res = await app.inject({ method: 'POST', url: '/stream', headers: { 'content-type': 'application/x-stream' }, payload: 'raw bytes' });
    assert.equal(res.statusCode, 200);
    await app.profiler!.settled();
    const stored = await app.profiler!.read(res.headers['x-debug-token'] as string);
    assert.deepEqual((stored?.collectors.request as { body: unknown }).body, { text: null, size: 9, truncated: false, note: 'unread' });
  });
});

describe("profiler thread, the app's collectors", () => {
  const SECRET = 'aPp-found-5ecret-77e1';
  /** Slow, and the only one to know that `note` holds a secret. */
  const noteCollector: DataCollector<{ password: unknown }> = {
    name: 'note',
    async collect(ctx) {
      await delay(50);
      return ctx.redaction.fields({ password: (ctx.request.body as { note?: unknown } | undefined)?.note });
    },
  };
  let app: FastifyInstance;
  before(async () => {
    app = await profilerApp({ PROFILER_DSN: `sqlite:${join(dir, 'collectors.db')}` }, { collectors: [noteCollector] });
  });
  after(() => app.close());

  test('settled() waits for an async collector: its profile is stored when settled() resolves', async () => {
    const res = await app.inject({ url: '/hello' });
    await app.profiler!.settled();
    const stored = await app.profiler!.read(res.headers['x-debug-token'] as string);
    assert.ok(stored, 'stored once settled');
    assert.ok('note' in stored.collectors);
  });

  test('a secret only an app collector found is removed from every panel', async () => {
    const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: { note: SECRET } });
    assert.equal(res.statusCode, 200);
    await app.profiler!.settled();
    const token = res.headers['x-debug-token'] as string;
    assert.equal(JSON.stringify(await app.profiler!.storage.read(token)).includes(SECRET), false, 'in the stored record');
    const stored = await app.profiler!.read(token);
    assert.ok(stored);
    const text = JSON.stringify(stored);
    assert.equal(text.includes(SECRET), false, text);
    assert.ok(text.includes('[redacted]'));
  });
});

describe('profiler thread, a secret an app collector found for the failing request only', () => {
  const SECRET = 'oNlY-parent-5ecret-3a9';
  /** Looks at main requests only: the sub-request would not find the secret itself. */
  const mainOnly: DataCollector<{ password: unknown } | null> = {
    name: 'main-only',
    collect: (ctx) => (ctx.subRequest ? null : ctx.redaction.fields({ password: (ctx.request.body as { note?: unknown } | undefined)?.note })),
  };
  let app: FastifyInstance;
  before(async () => {
    app = await profilerApp({ PROFILER_DSN: `sqlite:${join(dir, 'family-secrets.db')}` }, { collectors: [mainOnly] }, (a) => {
      a.post('/note', async (request) => {
        throw new Error(`Could not file the note ${(request.body as { note: string }).note}`);
      });
    });
  });
  after(() => app.close());

  test('is scrubbed from its error sub-request too, which shows the same exception', async () => {
    const res = await app.inject({ method: 'POST', url: '/note', payload: { note: SECRET } });
    assert.equal(res.statusCode, 500);
    await app.profiler!.settled();
    const summaries = await app.profiler!.storage.find({ limit: 10 });
    assert.equal(summaries.length, 2);
    for (const { token } of summaries) {
      assert.equal(JSON.stringify(await app.profiler!.storage.read(token)).includes(SECRET), false, `stored record ${token}`);
      assert.equal(JSON.stringify(await app.profiler!.read(token)).includes(SECRET), false, `profile ${token}`);
    }
  });
});

test('PROFILER_DSN=sqlite::memory: records in-process, where the pages can read it', async () => {
  const app = await profilerApp({ PROFILER_DSN: 'sqlite::memory:' });
  try {
    const res = await app.inject({ url: '/hello' });
    await app.profiler!.settled();
    assert.equal((await app.profiler!.read(res.headers['x-debug-token'] as string))?.statusCode, 200);
    assert.equal((await app.inject({ url: '/_profiler/latest' })).statusCode, 200);
  } finally {
    await app.close();
  }
});
