import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asSent, decodeSnapshot } from './profiler-thread-messages.ts';
import { plainSnapshot } from './plain-snapshot.ts';
import { cleanSnapshotFor } from './profile-sink.contract.ts';
import type { RequestSnapshot } from './profiled-request.ts';

const clean = cleanSnapshotFor('e00001');
const cut = new TextEncoder().encode(`{"a":"${'x'.repeat(1000)}`);
/** A cut request body beside a log record JSON refuses (a BigInt): the encoding falls back to plainSnapshot. */
const hostile: RequestSnapshot = {
  ...clean,
  request: { ...clean.request, method: 'POST', body: cut, bodyNote: { kind: 'cut', size: 100_000 } },
  logs: [{ time: clean.startTime, level: 'info', channel: 'app', message: 'm', context: { n: 10n } }],
};

test('a snapshot encoded again as plain data keeps its cut body beside the text, not in it', () => {
  assert.throws(() => JSON.stringify(asSent(hostile).snapshot), /BigInt/);
  const { snapshot, payload, body } = asSent(hostile, false, plainSnapshot);
  const text = JSON.stringify(snapshot);
  // Found by an outside review: the bytes were written into the text as {"0":123,"1":34,…}, ten times their size.
  assert.equal(text.includes('"0":'), false);
  assert.ok(text.length < 1000, `${text.length} characters`);
  assert.equal(body, cut);
  const back = decodeSnapshot(text, payload, body);
  assert.equal(back.request.body, `{"a":"${'x'.repeat(1000)}`);
  assert.deepEqual(back.logs[0]!.context, { n: '10' });
  assert.equal(back.response!.payload, clean.response!.payload);
});

test('a sub-request that inherits is sent without the response and exception its parent carries', () => {
  const child = { ...clean, token: 'e00002', parentToken: 'e00001', exception: [{ name: 'Error', message: 'boom', stack: 'Error: boom', code: null, status: 500 }] as unknown as RequestSnapshot['exception'] };
  const { snapshot, payload } = asSent(child, true);
  assert.equal(payload, null);
  const back = decodeSnapshot(JSON.stringify(snapshot), null);
  assert.equal(back.response, null);
  assert.deepEqual(back.exception, []);
});
