/**
 * The one contract every ProfileFeed passes. Each implementation's `*.test.ts` calls
 * `profileFeedContract` with a factory that opens a fresh feed and says how a profile is
 * recorded into it (published by the profiler, or written to the shared store).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ProfileSummary } from '../profile.ts';
import type { ProfileFeed } from './profile-feed.ts';

export interface FeedUnderTest {
  readonly feed: ProfileFeed;
  /** Records profiles the way the feed learns of them; resolves once they are recorded. */
  record(summaries: readonly ProfileSummary[]): Promise<void>;
  /** Whether the feed has opened a connection of its own (false for one that needs none). */
  connected(): boolean;
  cleanUp?(): Promise<void>;
}

const T0 = Date.now();
const summary = (token: string, url = `http://localhost/books/${token}`): ProfileSummary => ({
  token, parent: null, ip: '127.0.0.1', method: 'GET', url, time: T0, statusCode: 200, durationMs: 1.25,
});

/** Resolves once `count` summaries have reached the list (events are asynchronous for some feeds). */
function collector(): { got: ProfileSummary[]; listener: (s: readonly ProfileSummary[]) => void; wait(count: number): Promise<void> } {
  const got: ProfileSummary[] = [];
  let wake = () => {};
  return {
    got,
    listener: (s) => {
      got.push(...s);
      wake();
    },
    wait: async (count) => {
      while (got.length < count) await new Promise<void>((resolve) => (wake = resolve));
    },
  };
}

export function profileFeedContract(name: string, factory: () => Promise<FeedUnderTest>, options: { skip?: string | false } = {}): void {
  describe(`ProfileFeed contract: ${name}`, { skip: options.skip }, () => {
    const withFeed = async (run: (t: FeedUnderTest) => Promise<void>) => {
      const t = await factory();
      try {
        await run(t);
      } finally {
        await t.feed.close();
        await t.cleanUp?.();
      }
    };

    it('opens nothing before the first subscriber', () =>
      withFeed(async (t) => {
        await t.record([summary('a00001')]);
        assert.equal(t.connected(), false);
      }));

    it('delivers what is recorded after subscribe resolved, in order, and nothing from before', () =>
      withFeed(async (t) => {
        await t.record([summary('b00000')]);
        const c = collector();
        await t.feed.subscribe(c.listener);
        await t.record([summary('b00001'), summary('b00002', 'http://h/a"q\\z\u2028')]);
        await t.record([summary('b00003')]);
        await c.wait(3);
        assert.deepEqual(c.got.map((s) => s.token), ['b00001', 'b00002', 'b00003']);
        // Exactly as recorded, characters JSON and the event stream treat specially included.
        assert.deepEqual(c.got[1], summary('b00002', 'http://h/a"q\\z\u2028'));
      }));

    it('every listener gets every profile; a detached one gets nothing more; a throwing one stops no one', () =>
      withFeed(async (t) => {
        const first = collector();
        const second = collector();
        const stop = await t.feed.subscribe(first.listener);
        await t.feed.subscribe(() => {
          throw new Error('a broken stream');
        });
        await t.feed.subscribe(second.listener);
        await t.record([summary('c00001')]);
        await Promise.all([first.wait(1), second.wait(1)]);
        stop();
        await t.record([summary('c00002')]);
        await second.wait(2);
        assert.deepEqual(first.got.map((s) => s.token), ['c00001']);
        assert.deepEqual(second.got.map((s) => s.token), ['c00001', 'c00002']);
      }));

    it('close detaches everyone and resolves; closing twice is harmless', () =>
      withFeed(async (t) => {
        const c = collector();
        await t.feed.subscribe(c.listener);
        await t.feed.close();
        await t.feed.close();
        await t.record([summary('d00001')]);
        // A sentinel through a fresh subscription proves the record above had time to arrive.
        const after = collector();
        await t.feed.subscribe(after.listener);
        await t.record([summary('d00002')]);
        await after.wait(1);
        assert.deepEqual(c.got, []);
      }));
  });
}
