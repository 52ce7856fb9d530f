import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redisForTests } from '../testing/services.ts';
import { defaultCollectors } from './panels/default-collectors.ts';
import { InProcessProfileSink } from './in-process-profile-sink.ts';
import { cleanSnapshotFor, profileSinkContract, SINK_BUILD, snapshotFor, type OpenSink } from './profile-sink.contract.ts';
import type { WriterLog } from './profile-writer.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryProfileStorage } from './storage/memory-profile-storage.ts';
import { openProfileStorage } from './storage/open-profile-storage.ts';
import type { ProfileStorage } from './storage/profile-storage.ts';
import { SqliteProfileStorage } from './storage/sqlite-profile-storage.ts';
import { profilerThreadOldGenerationMb, ThreadProfileSink } from './thread-profile-sink.ts';
import { TokenIssuer } from './token.ts';
import { cutLargeBody } from './large-body.ts';

const dir = mkdtempSync(join(tmpdir(), 'trellis-profile-sink-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
// A store no one can open: its directory would have to be made inside a regular file.
writeFileSync(join(dir, 'a-file'), '');
const UNOPENABLE = `sqlite:${join(dir, 'a-file', 'profiler.db')}`;
let n = 0;
const retention = { maxProfiles: 1000, ttlSeconds: 3600 };
const build = SINK_BUILD;

/** A store whose writes fail, as a store that lost its connection does. */
function failing(storage: ProfileStorage): ProfileStorage {
  return Object.assign(Object.create(storage) as ProfileStorage, { write: () => Promise.reject(new Error('disk full')) });
}

function inProcess(make: () => ProfileStorage): OpenSink {
  return async (log, broken) => {
    const storage = make();
    const sink = new InProcessProfileSink(broken ? failing(storage) : storage, log, new TokenIssuer(1000), { ...build, collectors: defaultCollectors });
    return { sink, storage, dispose: () => storage.close() };
  };
}

profileSinkContract('in-process, memory store', inProcess(() => new MemoryProfileStorage(retention)));
profileSinkContract('in-process, SQLite store', inProcess(() => new SqliteProfileStorage(join(dir, `in-process-${n++}.db`), retention)));

profileSinkContract('profiler thread, SQLite DSN', async (log, broken) => {
  const dsn = broken ? UNOPENABLE : `sqlite:${join(dir, `thread-${n++}.db`)}`;
  const storage = broken ? new MemoryProfileStorage(retention) : await openProfileStorage(dsn, retention);
  return { sink: new ThreadProfileSink({ ...build, dsn, retention }, log), storage, dispose: () => storage.close() };
});

const redis = await redisForTests();
profileSinkContract(
  'profiler thread, Redis DSN',
  async (log, broken) => {
    const dsn = `${redis.url}?prefix=trellis-test:profile-sink:${process.pid}:${n++}:`;
    if (broken) {
      // Nothing listens on port 1: every write fails once the client gives up retrying.
      const storage = new MemoryProfileStorage(retention);
      return { sink: new ThreadProfileSink({ ...build, dsn: 'redis://127.0.0.1:1/0', retention }, log), storage, dispose: () => storage.close() };
    }
    const storage = await openProfileStorage(dsn, retention);
    return {
      sink: new ThreadProfileSink({ ...build, dsn, retention }, log),
      storage,
      dispose: async () => {
        await storage.purge();
        await storage.close();
      },
    };
  },
  { skip: redis.skip },
);

test('a profiler thread that stops on its own is restarted once a minute at most: what it held is counted, recording goes on', async () => {
  const dsn = `sqlite:${join(dir, `restart-${n++}.db`)}`;
  const lines: string[] = [];
  const log = { warn: (_: unknown, m: string) => lines.push(m), error: (_: unknown, m: string) => lines.push(m) } as unknown as WriterLog;
  const sink = new ThreadProfileSink({ ...build, dsn, retention }, log, undefined, new URL('./failing-profiler-thread.fixture.ts', import.meta.url));
  const storage = await openProfileStorage(dsn, retention);
  try {
    sink.send([snapshotFor('dead00'), cleanSnapshotFor('a0a0a1')]);
    await sink.settled();
    assert.equal(sink.dropped, 2);
    assert.deepEqual(lines, ['The profiler thread stopped (exit code 70) and was restarted; 2 requests it held went unrecorded.']);

    sink.send([cleanSnapshotFor('b0b0b2')]);
    await sink.settled();
    assert.equal((await storage.read('b0b0b2'))?.token, 'b0b0b2');
    assert.equal(await storage.read('a0a0a1'), null);
    assert.equal(sink.dropped, 2);

    // Failing again within the minute, it stays stopped: recording ends, and says so.
    sink.send([snapshotFor('dead00')]);
    await sink.settled();
    assert.equal(lines[1], 'The profiler thread stopped again (exit code 70): requests are no longer recorded.');
    sink.send([cleanSnapshotFor('c0c0c3')]);
    await sink.settled();
    assert.equal(await storage.read('c0c0c3'), null);
  } finally {
    await sink.close();
    await storage.close();
  }
});

test("the profiler thread's heap bound: 512 MB, or eight times the backlog bound when that is larger", () => {
  assert.equal(profilerThreadOldGenerationMb(0), 512);
  assert.equal(profilerThreadOldGenerationMb(32 * 2 ** 20), 512);
  assert.equal(profilerThreadOldGenerationMb(64 * 2 ** 20), 512);
  assert.equal(profilerThreadOldGenerationMb(100 * 2 ** 20), 800);
  assert.equal(profilerThreadOldGenerationMb(2 ** 30), 8192);
});

test('one profile of more than 64 MB (an eighth of the thread heap bound) is not sent to the thread: counted, said once, the others stored', async () => {
  const dsn = `sqlite:${join(dir, `too-large-${n++}.db`)}`;
  const lines: string[] = [];
  const log = { warn: (_: unknown, m: string) => lines.push(m), error: (_: unknown, m: string) => lines.push(m) } as unknown as WriterLog;
  const sink = new ThreadProfileSink({ ...build, dsn, retention }, log);
  const storage = await openProfileStorage(dsn, retention);
  try {
    const small = cleanSnapshotFor('a1a1a1');
    const huge = { ...cleanSnapshotFor('b2b2b2'), logs: [{ time: 0, level: 'info', channel: 'app', message: 'dump', context: { dump: 'x'.repeat(65 * 2 ** 20) } }] };
    sink.send([huge, small]);
    sink.send([{ ...huge, token: 'c3c3c3' }]);
    await sink.settled();
    assert.equal((await storage.read('a1a1a1'))?.token, 'a1a1a1');
    assert.equal(await storage.read('b2b2b2'), null);
    assert.equal(await storage.read('c3c3c3'), null);
    assert.equal(sink.dropped, 2);
    assert.deepEqual(lines, ['A profile of 65.0 MB is larger than the profiler thread takes (64 MB): not recorded.']);
  } finally {
    await sink.close();
    await storage.close();
  }
});

test('a thread behind its store decodes a few MB of the backlog at a time: the rest waits serialised on its port, not in its heap', async () => {
  // A Redis that accepts connections and never answers: the thread's writes wait for ever.
  const sockets = new Set<Socket>();
  const server = createServer((socket) => sockets.add(socket.on('data', () => {})));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const log = { warn: () => {}, error: () => {} } as unknown as WriterLog;
  const sink = new ThreadProfileSink({ ...build, dsn: `redis://127.0.0.1:${port}/0`, retention }, log, 64 * 2 ** 20);
  try {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = (await sink.threadHeap()).used_heap_size;
    // 32 MB of cut uploads (as large-body.ts leaves them), each posted at once.
    for (let i = 0; i < 512; i++) {
      const base = cleanSnapshotFor(`e${i.toString(16).padStart(5, '0')}`);
      sink.send([{ ...base, request: { ...base.request, method: 'POST', body: Buffer.from(String(i).padEnd(64 * 1024, 'x')), bodyNote: { kind: 'cut', size: 900 * 1024 } } }]);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const grown = (await sink.threadHeap()).used_heap_size - before;
    // Decoded whole, the backlog alone would be 32 MB of the thread's heap.
    assert.ok(grown < 16 * 2 ** 20, `the thread's heap grew by ${(grown / 2 ** 20).toFixed(1)} MB`);
  } finally {
    // The store goes away: the thread's writes fail, and it can close.
    server.close();
    for (const socket of sockets) socket.destroy();
    await sink.close();
  }
});

test("a cut request body's memory moves to the profiler thread (transferred, not copied); bytes it did not cut are copied", async () => {
  const dsn = `sqlite:${join(dir, `transfer-${n++}.db`)}`;
  const log = { warn: () => {}, error: () => {}, info: () => {} } as unknown as WriterLog;
  const sink = new ThreadProfileSink({ ...build, dsn, retention }, log);
  try {
    const upload = { password: 'hunter2-transfer', note: 'n'.repeat(900 * 1024) };
    const length = JSON.stringify(upload).length;
    const base = cleanSnapshotFor('c0ffee');
    const cut = cutLargeBody({ ...base, request: { ...base.request, method: 'POST', body: upload, headers: { 'content-length': String(length) } } }, SINK_BUILD.maxBodyBytes, SINK_BUILD.redactKeys);
    const own = cut.request.body as Uint8Array;
    const foreign = Buffer.from('{"a": "kept by its owner"}');
    const other = cleanSnapshotFor('c0ffef');
    sink.send([cut, { ...other, request: { ...other.request, method: 'POST', body: foreign, bodyNote: { kind: 'cut', size: 900 * 1024 } } }]);
    await sink.settled();
    assert.equal(own.byteLength, 0, 'detached here: its memory belongs to the thread now');
    assert.equal(foreign.toString(), '{"a": "kept by its owner"}', 'a buffer the profiler did not make is left to its owner');
    const storage = await openProfileStorage(dsn, retention);
    try {
      const stored = await storage.read(cut.token);
      assert.ok(stored !== null && stored.data.includes('[redacted]') && !stored.data.includes('hunter2-transfer'), 'stored from the transferred bytes, redacted');
      assert.ok((await storage.read(other.token))?.data.includes('kept by its owner'), 'the copied one is stored too');
    } finally {
      await storage.close();
    }
  } finally {
    await sink.close();
  }
});

test('a batch that cannot be posted (a body detached by its owner while it waited) is counted, said, and recording goes on', async () => {
  const dsn = `sqlite:${join(dir, `unpostable-${n++}.db`)}`;
  const lines: string[] = [];
  const log = { warn: (_: unknown, m: string) => lines.push(m), error: (_: unknown, m: string) => lines.push(m) } as unknown as WriterLog;
  const sink = new ThreadProfileSink({ ...build, dsn, retention }, log);
  const storage = await openProfileStorage(dsn, retention);
  try {
    const body = new Uint8Array(new ArrayBuffer(1024)).fill(0x61);
    const base = cleanSnapshotFor('d4d4d4');
    sink.send([{ ...base, request: { ...base.request, method: 'POST', body, bodyNote: { kind: 'cut', size: 900 * 1024 } } }, cleanSnapshotFor('e5e5e5')]);
    // Its owner gives the buffer away before the batch is posted: the clone of the batch fails.
    structuredClone(body.buffer, { transfer: [body.buffer] });
    await sink.settled();
    assert.equal(sink.dropped, 2, 'the whole batch, counted');
    assert.deepEqual(lines, ['The profiler could not hand 2 profile(s) to its thread: An ArrayBuffer is detached and could not be cloned.']);
    sink.send([cleanSnapshotFor('f6f6f6')]);
    await sink.settled();
    assert.equal((await storage.read('f6f6f6'))?.token, 'f6f6f6', 'later profiles are stored');
    assert.equal(await storage.read('e5e5e5'), null);
  } finally {
    await sink.close();
    await storage.close();
  }
});
