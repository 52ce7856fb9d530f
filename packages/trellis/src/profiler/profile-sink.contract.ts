/**
 * The contract every ProfileSink passes (see profile-sink.ts): what is read back is the profile
 * built from what was sent, stored in order, redacted before it reaches the store, `settled()` and
 * `close()` waiting for what was sent, and a failing store logged, never thrown.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SECRET_KEYS } from '../logging/redact-secrets.ts';
import { buildProfile, type BuildOptions } from './build-profile.ts';
import { defaultCollectors } from './panels/default-collectors.ts';
import type { Profile } from './profile.ts';
import type { RequestSnapshot } from './profiled-request.ts';
import type { ProfileSink } from './profile-sink.ts';
import type { WriterLog } from './profile-writer.ts';
import type { ProfileRecord } from './storage/profile-record.ts';
import type { ProfileStorage } from './storage/profile-storage.ts';
import { profileOf } from './stored-profile.ts';

/** How every sink under this contract builds profiles. */
export const SINK_BUILD: BuildOptions = { maxBodyBytes: 4096, redactKeys: DEFAULT_SECRET_KEYS };

export interface OpenedSink {
  readonly sink: ProfileSink;
  /** A reader of the store the sink writes to. */
  readonly storage: ProfileStorage;
  /** Closes the reader (the sink is closed by the suite). */
  readonly dispose: () => Promise<void>;
}

/** Opens a sink on an empty store; `broken` asks for one whose store cannot be written. */
export type OpenSink = (log: WriterLog, broken: boolean) => Promise<OpenedSink>;

export const CANARY = 'cAnArY-5ecret-81c2f0';
// Relative to now: stores hide profiles older than their TTL.
const T0 = Date.now() - 60_000;

/** A request as the recorder hands it on: a POST with a canary secret in header, query and body. */
export function snapshotFor(token: string, at = 0, parentToken: string | null = null): RequestSnapshot {
  const payload = JSON.stringify({ '@id': `/books/${token}`, title: 'Dune' });
  return {
    token,
    parentToken,
    children: [],
    request: {
      method: 'POST',
      url: `/books?page=2&api_key=${CANARY}`,
      protocol: 'https',
      host: 'shop.test',
      httpVersion: '1.1',
      ip: '192.0.2.7',
      headers: { host: 'shop.test', authorization: `Bearer ${CANARY}`, 'content-type': 'application/json' },
      query: { page: '2', api_key: CANARY },
      body: { title: 'Dune', password: CANARY },
      bodyNote: null,
      route: '/books',
      params: {},
    },
    subRequest: parentToken === null ? null : { purpose: 'error', contentType: 'application/problem+json' },
    startTime: T0 + at,
    durationMs: 1.25,
    statusCode: 201,
    marks: { names: ['observe', 'handler', 'terminate'], atUs: [0, 500, 1250] },
    exception: [],
    logs: [{ time: T0 + at, level: 'info', channel: 'app', message: `created ${token}`, context: { book: token } }],
    response: { statusCode: 201, headers: { 'content-type': 'application/ld+json' }, payload, size: Buffer.byteLength(payload) },
    collected: {},
  };
}

/** A request that holds no secret: a GET as a browser sends it, answered with the profiler's headers. */
export function cleanSnapshotFor(token: string, at = 0): RequestSnapshot {
  const payload = JSON.stringify({ '@id': '/books/1', title: 'Dune' });
  const base = snapshotFor(token, at);
  return {
    ...base,
    request: { ...base.request, method: 'GET', url: '/books/1?page=2', headers: { host: 'shop.test', accept: 'application/ld+json' }, query: { page: '2' }, body: undefined },
    statusCode: 200,
    response: {
      statusCode: 200,
      headers: { 'content-type': 'application/ld+json', 'x-debug-token': token, 'x-debug-token-link': `https://shop.test/_profiler/${token}` },
      payload,
      size: Buffer.byteLength(payload),
    },
  };
}

function recordingLog(): WriterLog & { readonly lines: string[] } {
  const lines: string[] = [];
  const write = (_context: unknown, message?: string) => void lines.push(message ?? '');
  return { lines, warn: write, error: write } as unknown as WriterLog & { readonly lines: string[] };
}

/** The stored record of a token, and the profile read from it. */
async function read(storage: ProfileStorage, token: string): Promise<{ record: ProfileRecord | null; profile: Profile | null }> {
  const record = await storage.read(token);
  return { record, profile: record && (await profileOf(record, defaultCollectors, SINK_BUILD, (parent) => storage.read(parent))) };
}

export function profileSinkContract(name: string, open: OpenSink, options: { skip?: string | false } = {}): void {
  describe(`ProfileSink contract: ${name}`, { skip: options.skip ?? false }, () => {
    /** Runs a test on a fresh sink, then closes it and its reader, whatever the test did. */
    async function withSink(log: WriterLog, broken: boolean, test: (opened: OpenedSink) => Promise<void>): Promise<void> {
      const opened = await open(log, broken);
      try {
        await test(opened);
      } finally {
        await opened.sink.close();
        await opened.dispose();
      }
    }

    it('builds each profile with the collectors, and stores a parent before its sub-request', async () => {
      await withSink(recordingLog(), false, async ({ sink, storage }) => {
        sink.send([{ ...snapshotFor('a00001'), children: ['a00002'] }, snapshotFor('a00002', 0, 'a00001')]);
        await sink.settled();
        const [newest, oldest] = await storage.find({ limit: 10 });
        assert.deepEqual([newest?.token, oldest?.token], ['a00002', 'a00001']);
        const { profile: parent } = await read(storage, 'a00001');
        assert.deepEqual(parent?.children, ['a00002']);
        assert.equal(parent?.url, 'https://shop.test/books?page=2&api_key=[redacted]');
        assert.equal(parent?.ip, '192.0.2.7');
        assert.deepEqual(Object.keys(parent?.collectors ?? {}), ['request', 'response', 'time', 'cpu', 'exception', 'logs', 'db', 'security', 'router', 'api', 'http_client', 'events']);
        assert.equal((parent?.collectors.logs as { records: { message: string }[] }).records[0]?.message, 'created a00001');
        assert.deepEqual((parent?.collectors.time as { phases: { name: string }[] }).phases.map((p) => p.name), ['observe', 'handler', 'terminate']);
        assert.deepEqual((parent?.collectors.response as { body: unknown }).body, { text: JSON.stringify({ '@id': '/books/a00001', title: 'Dune' }), size: 38, truncated: false });
        const { profile: child } = await read(storage, 'a00002');
        assert.equal(child?.parent, 'a00001');
        assert.deepEqual((child?.collectors.request as { subRequest: unknown }).subRequest, { purpose: 'error' });
      });
    });

    it('redacts before storing: the canary secret is in no stored profile', async () => {
      await withSink(recordingLog(), false, async ({ sink, storage }) => {
        sink.send([snapshotFor('b00001')]);
        await sink.settled();
        const { record, profile } = await read(storage, 'b00001');
        assert.equal(profile?.token, 'b00001');
        const text = JSON.stringify(record);
        assert.equal(text.includes(CANARY), false, text);
        assert.equal((profile?.collectors.request as { headers: Record<string, string> }).headers.authorization, '[redacted]');
      });
    });

    it('a failing request and its error sub-request, which share the response and the exception, read back whole', async () => {
      await withSink(recordingLog(), false, async ({ sink, storage }) => {
        for (const [parent, clean] of [['b20001', true], ['b20003', false]] as const) {
          const child = parent.replace(/1$|3$/, (d) => String(Number(d) + 1));
          const base = clean ? cleanSnapshotFor(parent) : snapshotFor(parent);
          const exception = [{ class: 'NotFoundHttpException', message: 'No route found for "GET /nowhere"', status: 404, code: 'route_not_found', stack: 'HttpError: No route found\n    at routingError (file:///app/kernel.ts:1:1)' }];
          const response = { ...base.response!, statusCode: 404 };
          const family: RequestSnapshot[] = [
            { ...base, children: [child], statusCode: 404, exception, response },
            { ...base, token: child, parentToken: parent, subRequest: { purpose: 'error', contentType: 'application/problem+json' }, statusCode: 404, exception, response, logs: [] },
          ];
          sink.send(family);
          await sink.settled();
          for (const snapshot of family) {
            const { record, profile } = await read(storage, snapshot.token);
            assert.equal(JSON.stringify(record).includes(CANARY), false);
            assert.deepEqual(profile, await buildProfile(snapshot, defaultCollectors, SINK_BUILD), snapshot.token);
          }
        }
      });
    });

    it('reads back the profile built from each snapshot, however it was stored', async () => {
      await withSink(recordingLog(), false, async ({ sink, storage }) => {
        const sent = [cleanSnapshotFor('b10001'), snapshotFor('b10002', 1)];
        sink.send(sent);
        await sink.settled();
        for (const snapshot of sent) {
          const { profile } = await read(storage, snapshot.token);
          assert.deepEqual(profile, await buildProfile(snapshot, defaultCollectors, SINK_BUILD));
        }
      });
    });

    it('settled() waits for every snapshot sent before it, however they were batched', async () => {
      await withSink(recordingLog(), false, async ({ sink, storage }) => {
        const tokens = Array.from({ length: 150 }, (_, i) => `c${i.toString(16).padStart(5, '0')}`);
        for (let i = 0; i < tokens.length; i += 7) sink.send(tokens.slice(i, i + 7).map((t, j) => snapshotFor(t, i + j)));
        await sink.settled();
        const found = await storage.find({ limit: 1000 });
        assert.deepEqual(found.map((s) => s.token), tokens.toReversed());
      });
    });

    it('close() stores what was sent before it', async () => {
      const { sink, storage, dispose } = await open(recordingLog(), false);
      try {
        sink.send([snapshotFor('d00001'), snapshotFor('d00002', 1)]);
        await sink.close();
        assert.deepEqual((await storage.find({ limit: 10 })).map((s) => s.token), ['d00002', 'd00001']);
      } finally {
        await dispose();
      }
    });

    it('a store that fails is logged; send and settled() go on', async () => {
      const log = recordingLog();
      await withSink(log, true, async ({ sink }) => {
        assert.doesNotThrow(() => sink.send([snapshotFor('e00001')]));
        await sink.settled();
        assert.doesNotThrow(() => sink.send([snapshotFor('e00002')]));
        await sink.settled();
        // Once per interval with a count (the second loss falls in the same interval), or the store never opened.
        assert.equal(log.lines.length, 1, log.lines.join('\n'));
        assert.equal(sink.dropped, 2, 'both are counted as not recorded');
        assert.match(log.lines[0]!, /^(Profile store unavailable: 1 profile dropped since the last report \(.+\)\.|The profiler thread could not open its store)/);
      });
    });
  });
}
