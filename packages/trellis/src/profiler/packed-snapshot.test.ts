import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { packSnapshot, unpackSnapshot, withWireHeaders } from './packed-snapshot.ts';
import { asSent, decodeSnapshot } from './profiler-thread-messages.ts';
import { headerObject } from './wire-headers.ts';
import { cleanSnapshotFor, snapshotFor } from './profile-sink.contract.ts';
import type { QueryRecord, RequestSnapshot } from './profiled-request.ts';
import { packMarks } from './packed-marks.ts';

/** What a snapshot is once through JSON (undefined fields gone), with its duration to the microsecond. */
function throughJson(s: RequestSnapshot): unknown {
  const us = (ms: number) => Math.round(ms * 1000) / 1000;
  return JSON.parse(JSON.stringify({ ...s, durationMs: us(s.durationMs), ...(s.queries && { queries: s.queries.map((q) => ({ ...q, durationMs: us(q.durationMs), atMs: us(q.atMs) })) }) }));
}

function roundTrip(s: RequestSnapshot): RequestSnapshot {
  return unpackSnapshot(JSON.parse(JSON.stringify(packSnapshot(s))));
}

const clean = cleanSnapshotFor('c00001');
const query = (extra: Partial<QueryRecord>): QueryRecord => ({ sql: 'select 1', parameters: [1, 'a'], durationMs: 0.25, atMs: 1.5, error: null, ...extra });

const cases: [string, RequestSnapshot][] = [
  ['a GET with a response body', clean],
  ['the sink contract canary (secrets in headers, body, logs)', snapshotFor('c00002')],
  ['a body of null, sent as JSON', { ...clean, request: { ...clean.request, body: null } }],
  ['a body of false and of 0', { ...clean, request: { ...clean.request, body: { a: false, b: 0 } } }],
  ['no response (a stream), no memory, no API record', { ...clean, response: null, memory: undefined, api: undefined }],
  ['queries with and without their optional fields', { ...clean, queries: [query({}), query({ rows: 0 }), query({ origin: 'app.ts:3' }), query({ foreign: true }), query({ rows: 2, origin: 'a.ts:1', foreign: true })] }],
  ['marks packed, and an API record packed', { ...clean, marks: packMarks({ names: ['observe', 'guard'], atUs: [0, 12] }), api: { shape: 'Book get', startUs: [3], durationUs: [1, 2] } }],
  [
    'every field only some requests have',
    {
      ...clean,
      queriesNotKept: 3,
      security: [{ kind: 'decision', atMs: 1, attribute: 'security', expression: 'is_granted("ROLE_ADMIN")', granted: false, strategy: 'affirmative', votes: [] }] as unknown as RequestSnapshot['security'],
      routing: { path: '/nope', methods: null, trace: { entries: [], omitted: 0 } as unknown as NonNullable<RequestSnapshot['routing']>['trace'] },
      httpCalls: [{ method: 'GET', url: 'http://127.0.0.1/x' }] as unknown as RequestSnapshot['httpCalls'],
      secrets: ['abc123'],
    },
  ],
  ['a sub-request', { ...clean, token: 'c00004', parentToken: 'c00001', subRequest: { purpose: 'error', contentType: 'application/problem+json' } }],
];

describe('packSnapshot', () => {
  for (const [name, snapshot] of cases) {
    test(`reads back as it was: ${name}`, () => {
      assert.deepEqual(roundTrip(snapshot), throughJson(snapshot));
    });
  }

  test('a snapshot stored unpacked, by an older version, reads as it is', () => {
    const old = throughJson(clean) as RequestSnapshot;
    assert.equal(unpackSnapshot(old), old);
  });

  test('what travels beside the text is left out of it: the response body, a cut request body', () => {
    const text = JSON.stringify(packSnapshot({ ...clean, request: { ...clean.request, body: 'long' } }, { payload: true, body: true }));
    const back = unpackSnapshot(JSON.parse(text));
    assert.equal(back.response!.payload, null);
    assert.equal(back.request.body, null);
    assert.equal(text.includes(clean.response!.payload!.replaceAll('"', '\\"')), false);
  });

  test('times are written as integers: log records from the start, durations and offsets in microseconds', () => {
    const snapshot: RequestSnapshot = { ...clean, startTime: 1_795_838_687_558, durationMs: 1.2356, logs: [{ time: 1_795_838_687_560, level: 'info', channel: 'app', message: 'm', context: {} }], queries: [query({ durationMs: 0.072, atMs: 0.597 })] };
    const packed = packSnapshot(snapshot) as unknown as unknown[];
    assert.equal(packed[7], 1236);
    assert.equal((packed[11] as unknown[][])[0]![0], 2);
    assert.deepEqual((packed[12] as unknown[][])[0]!.slice(2, 4), [72, 597]);
    const back = roundTrip(snapshot);
    assert.equal(back.logs[0]!.time, 1_795_838_687_560);
    assert.deepEqual([back.queries![0]!.durationMs, back.queries![0]!.atMs], [0.072, 0.597]);
  });

  describe('response headers kept as the block written to the socket (wire-headers.ts)', () => {
    const wire = 'HTTP/1.1 200 OK\r\ncontent-type: application/ld+json\r\nx-debug-token: c00001\r\nx-debug-token-link: http://localhost/_profiler/c00001\r\nset-cookie: a=1\r\nset-cookie: b=2\r\nDate: Sat, 28 Nov 2026 20:03:23 GMT\r\n\r\n';
    const withWire: RequestSnapshot = { ...clean, response: { ...clean.response!, headers: {}, wire } };
    const expected = { 'content-type': 'application/ld+json', 'x-debug-token': 'c00001', 'x-debug-token-link': 'http://localhost/_profiler/c00001', 'set-cookie': ['a=1', 'b=2'], date: 'Sat, 28 Nov 2026 20:03:23 GMT' };

    test('sent beside the text, and appended to it as an object on the profiler thread', () => {
      const sent = asSent(withWire);
      assert.equal(sent.wire, wire);
      const text = JSON.stringify(sent.snapshot);
      // Nothing of the headers is in the text the request thread encodes.
      assert.equal(text.includes('x-debug-token'), false);
      assert.equal(text.endsWith(',null]'), true, 'the place of the optional fields, always written');
      const completed = withWireHeaders(text, headerObject(sent.wire!));
      assert.equal(completed.includes('"x-debug-token":"c00001"'), true);
      const back = decodeSnapshot(completed, sent.payload);
      assert.deepEqual(back.response!.headers, expected);
      assert.equal(back.response!.wire, undefined);
      assert.equal(back.response!.payload, clean.response!.payload);
    });

    test('with the optional fields there too, and without a block (HTTP/2) as before', () => {
      const extra = { ...withWire, queriesNotKept: 2, secrets: ['s3cret'] };
      const sent = asSent(extra);
      const back = decodeSnapshot(withWireHeaders(JSON.stringify(sent.snapshot), headerObject(sent.wire!)), sent.payload);
      assert.deepEqual([back.response!.headers, back.queriesNotKept, back.secrets], [expected, 2, ['s3cret']]);
      const plain = asSent(clean);
      assert.equal(plain.wire, null);
      assert.equal(withWireHeaders('[3]', null), '[3]');
      assert.deepEqual(decodeSnapshot(JSON.stringify(plain.snapshot), plain.payload).response!.headers, clean.response!.headers);
    });

    test('a block not sent beside is read into the text where the headers go', () => {
      const back = roundTrip(withWire);
      assert.deepEqual(back.response!.headers, expected);
      assert.equal(back.response!.wire, undefined);
    });

    test('a format 2 text, stored by the previous version, still reads: optional fields absent or last', () => {
      const three = packSnapshot(clean) as unknown as unknown[];
      const two = [2, ...three.slice(1, 17)];
      assert.deepEqual(unpackSnapshot(JSON.parse(JSON.stringify(two))), roundTrip(clean));
      const withExtra = { ...clean, queriesNotKept: 4 };
      const twoExtra = [2, ...(packSnapshot(withExtra) as unknown as unknown[]).slice(1)];
      assert.equal(twoExtra.length, 18);
      assert.deepEqual(unpackSnapshot(JSON.parse(JSON.stringify(twoExtra))), roundTrip(withExtra));
    });
  });

  test('the duration is kept to the microsecond', () => {
    assert.equal(roundTrip({ ...clean, durationMs: 1.2356449999997494 }).durationMs, 1.236);
  });

  test("the snapshot's own fields are written as arrays; what a client or the app named keeps its keys", () => {
    const snapshot: RequestSnapshot = {
      ...clean,
      request: { ...clean.request, headers: { ...clean.request.headers, authorization: 'Bearer x' }, query: { page: '2' }, params: { id: '1' }, body: { password: 'p' } },
      logs: [{ time: 1, level: 'info', channel: 'app', message: 'm', context: { session: 's' } }],
      collected: { payments: { cardToken: 't' } },
    };
    const text = JSON.stringify(packSnapshot(snapshot));
    assert.equal(text.startsWith('[3,"c00001",null,[],["GET",'), true);
    for (const key of ['authorization', 'page', 'id', 'password', 'session', 'payments', 'cardToken', 'x-debug-token', 'x-debug-token-link', 'content-type']) assert.ok(text.includes(`"${key}":`), key);
    for (const own of ['token', 'parentToken', 'request', 'method', 'url', 'headers', 'logs', 'level', 'response', 'statusCode', 'memory']) assert.equal(text.includes(`"${own}":`), false, own);
  });

  test('a GET /books/1 snapshot is a quarter shorter packed', () => {
    const whole = JSON.stringify(clean).length;
    const packed = JSON.stringify(packSnapshot(clean)).length;
    assert.ok(packed < whole * 0.85, `${packed} of ${whole}`);
  });
});

describe('packSnapshot, generated', () => {
  const json = fc.jsonValue({ maxDepth: 2 });
  const record = fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 });
  const snapshot = fc
    .record({
      body: fc.option(json, { nil: undefined }),
      headers: record,
      query: record,
      params: record,
      logs: fc.array(fc.record({ time: fc.nat(), level: fc.constantFrom('info', 'debug'), channel: fc.string({ maxLength: 6 }), message: fc.string({ maxLength: 12 }), context: record }), { maxLength: 3 }),
      queries: fc.array(fc.record({ sql: fc.string({ maxLength: 20 }), parameters: fc.array(json, { maxLength: 3 }), durationMs: fc.double({ min: 0, max: 100, noNaN: true }), atMs: fc.double({ min: 0, max: 100, noNaN: true }), error: fc.option(fc.string({ maxLength: 8 }), { nil: null }), rows: fc.option(fc.nat(), { nil: undefined }), origin: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }), foreign: fc.option(fc.constant(true as const), { nil: undefined }) }, { requiredKeys: ['sql', 'parameters', 'durationMs', 'atMs', 'error'] }), { maxLength: 3 }),
      payload: fc.option(fc.string({ maxLength: 20 }), { nil: null }),
      durationMs: fc.double({ min: 0, max: 1e6, noNaN: true }),
    })
    .map(({ body, headers, query, params, logs, queries, payload, durationMs }): RequestSnapshot => ({
      ...clean,
      request: { ...clean.request, headers, query, params, body },
      logs,
      queries,
      durationMs,
      response: { ...clean.response!, payload },
    }));

  test('every snapshot reads back as it was', () => {
    fc.assert(
      fc.property(snapshot, (s) => {
        assert.deepEqual(roundTrip(s), throughJson(s));
      }),
      { numRuns: 300 },
    );
  });
});
