import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildProfile, summaryOf } from './build-profile.ts';
import { defaultCollectors } from './panels/default-collectors.ts';
import type { Profile } from './profile.ts';
import { cleanSnapshotFor, SINK_BUILD } from './profile-sink.contract.ts';
import { deferredRecord, profileOf, recordOf } from './stored-profile.ts';
import { asSent } from './profiler-thread-messages.ts';

const profile: Profile = {
  token: 'c0ffee',
  parent: null,
  ip: '127.0.0.1',
  method: 'GET',
  url: 'http://localhost/books/1',
  time: 1_795_000_000_000,
  statusCode: 200,
  durationMs: 1.25,
  children: ['c0ffe0'],
  collectors: { request: { method: 'GET' }, custom: { text: 'é "quoted" \\' } },
};

test('a built profile reads back as written, its summary indexed beside it', () => {
  const record = recordOf(profile);
  assert.deepEqual({ ...record, data: undefined }, { token: 'c0ffee', parent: null, ip: '127.0.0.1', method: 'GET', url: 'http://localhost/books/1', time: 1_795_000_000_000, statusCode: 200, durationMs: 1.25, data: undefined });
  assert.deepEqual(profileOf(record, defaultCollectors, SINK_BUILD), profile);
});

test('what JSON cannot carry of a collector\'s data is dropped when the record is made', () => {
  const odd = { ...profile, collectors: { custom: { kept: 1, dropped: () => 1 } } };
  assert.deepEqual(profileOf(recordOf(odd), [], SINK_BUILD), { ...profile, collectors: { custom: { kept: 1 } } });
});

test('a snapshot stored as its text reads back as the profile built from it', async () => {
  const snapshot = cleanSnapshotFor('b00001');
  const { snapshot: bare, payload } = asSent(snapshot);
  const record = deferredRecord(summaryOf(snapshot), JSON.stringify(bare), payload);
  assert.equal(record.data.startsWith('{"snapshot":[3,"b00001",null,'), true);
  assert.deepEqual(await profileOf(record, defaultCollectors, SINK_BUILD), await buildProfile(snapshot, defaultCollectors, SINK_BUILD));
});

test('a snapshot stored under a redrawn token is read under that token', async () => {
  const snapshot = cleanSnapshotFor('b00001');
  const { snapshot: bare, payload } = asSent(snapshot);
  const record = { ...deferredRecord(summaryOf(snapshot), JSON.stringify(bare), payload), token: 'b00009' };
  const read = await profileOf(record, defaultCollectors, SINK_BUILD);
  assert.equal(read.token, 'b00009');
  assert.equal((read.collectors.response as { body: { text: string } }).body.text, snapshot.response!.payload);
});

test('a sub-request stored without what it shares with its parent reads it back from the parent, when that is its parent', async () => {
  const parent = { ...cleanSnapshotFor('d00001'), children: ['d00002'], statusCode: 404 };
  const child = { ...parent, token: 'd00002', parentToken: 'd00001', children: [], subRequest: { purpose: 'error', contentType: null } };
  const { snapshot: bare, payload } = asSent(parent);
  const records = new Map([['d00001', deferredRecord(summaryOf(parent), JSON.stringify(bare), payload)]]);
  const stored = deferredRecord(summaryOf(child), JSON.stringify(asSent(child, true).snapshot), null, true);
  const read = async (token: string) => records.get(token) ?? null;
  assert.deepEqual(await profileOf(stored, defaultCollectors, SINK_BUILD, read), await buildProfile(child, defaultCollectors, SINK_BUILD));
  // Its parent gone, or the record under that token another request's: read without them.
  const alone = await buildProfile({ ...child, response: null }, defaultCollectors, SINK_BUILD);
  assert.deepEqual(await profileOf(stored, defaultCollectors, SINK_BUILD, async () => null), alone);
  records.set('d00001', deferredRecord(summaryOf(parent), JSON.stringify(asSent({ ...parent, children: ['ffffff'] }).snapshot), payload));
  assert.deepEqual(await profileOf(stored, defaultCollectors, SINK_BUILD, read), alone);
});
