import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InProcessProfileSink } from '../in-process-profile-sink.ts';
import { defaultCollectors } from '../panels/default-collectors.ts';
import type { ProfileSummary } from '../profile.ts';
import { CANARY, profileSinkContract, SINK_BUILD, snapshotFor } from '../profile-sink.contract.ts';
import type { ProfileSink } from '../profile-sink.ts';
import { MemoryProfileStorage } from '../storage/memory-profile-storage.ts';
import type { ProfileStorage } from '../storage/profile-storage.ts';
import { TokenIssuer } from '../token.ts';
import { FeedingSink } from './feeding-sink.ts';
import { LocalProfileFeed } from './local-profile-feed.ts';

const retention = { maxProfiles: 1000, ttlSeconds: 3600 };

// A sink wrapped for the live view is still a sink: the same contract, with a live view listening.
profileSinkContract('feeding (live view open), in-process, memory store', async (log, broken) => {
  const storage = new MemoryProfileStorage(retention);
  const target: ProfileStorage = broken ? Object.assign(Object.create(storage) as ProfileStorage, { write: () => Promise.reject(new Error('disk full')) }) : storage;
  const feed = new LocalProfileFeed();
  await feed.subscribe(() => {});
  const inner = new InProcessProfileSink(target, log, new TokenIssuer(1000), { ...SINK_BUILD, collectors: defaultCollectors });
  return { sink: new FeedingSink(inner, feed, SINK_BUILD.redactKeys), storage, dispose: () => storage.close() };
});

/** A sink that records what it was sent. */
function recording(): ProfileSink & { sent: string[] } {
  const sent: string[] = [];
  return { sent, dropped: 0, send: (s) => void sent.push(...s.map((x) => x.token)), settled: async () => {}, close: async () => {} };
}

test('publishes the summaries it is sent, URL redacted, after handing them on', async () => {
  const inner = recording();
  const feed = new LocalProfileFeed();
  const got: ProfileSummary[] = [];
  await feed.subscribe((s) => got.push(...s));
  const sink = new FeedingSink(inner, feed, SINK_BUILD.redactKeys);
  sink.send([snapshotFor('aaaaa1'), snapshotFor('aaaaa2', 1, 'aaaaa1')]);
  assert.deepEqual(inner.sent, ['aaaaa1', 'aaaaa2']);
  assert.deepEqual(got.map((s) => [s.token, s.parent, s.method, s.statusCode]), [['aaaaa1', null, 'POST', 201], ['aaaaa2', 'aaaaa1', 'POST', 201]]);
  assert.equal(got[0]!.url, 'https://shop.test/books?page=2&api_key=[redacted]');
  assert.equal(JSON.stringify(got).includes(CANARY), false);
});

test('with no live view open, nothing is published; a failing listener never reaches the sender', async () => {
  const inner = recording();
  const feed = new LocalProfileFeed();
  const sink = new FeedingSink(inner, feed, SINK_BUILD.redactKeys);
  assert.equal(feed.listening, false);
  sink.send([snapshotFor('bbbbb1')]);
  await feed.subscribe(() => {
    throw new Error('a broken stream');
  });
  assert.doesNotThrow(() => sink.send([snapshotFor('bbbbb2')]));
  assert.deepEqual(inner.sent, ['bbbbb1', 'bbbbb2']);
});

