import { summaryOf } from '../build-profile.ts';
import type { RequestSnapshot } from '../profiled-request.ts';
import type { ProfileSink } from '../profile-sink.ts';
import { Redaction } from '../redact.ts';
import type { LocalProfileFeed } from './local-profile-feed.ts';

/**
 * A sink that also tells this process's live views what it is handed (a store of this process
 * only: memory, SQLite; a shared store publishes what it writes itself). It runs where the
 * recorder hands snapshots on, a turn after their responses; with no live view open it costs
 * one property read per batch. The summary's URL is redacted by name, as a stored one is: a live
 * view shows nothing a stored profile would not.
 */
export class FeedingSink implements ProfileSink {
  readonly #sink: ProfileSink;
  readonly #feed: LocalProfileFeed;
  readonly #redactKeys: readonly string[];

  constructor(sink: ProfileSink, feed: LocalProfileFeed, redactKeys: readonly string[]) {
    this.#sink = sink;
    this.#feed = feed;
    this.#redactKeys = redactKeys;
  }

  send(snapshots: readonly RequestSnapshot[]): void {
    this.#sink.send(snapshots);
    if (!this.#feed.listening || snapshots.length === 0) return;
    try {
      this.#feed.publish(snapshots.map((snapshot) => {
        const summary = summaryOf(snapshot);
        return { ...summary, url: new Redaction(this.#redactKeys).url(summary.url) };
      }));
    } catch {
      // The live view is a convenience; recording must go on whatever it does (the contract of send).
    }
  }

  get dropped(): number {
    return this.#sink.dropped;
  }

  settled(): Promise<void> {
    return this.#sink.settled();
  }

  close(): Promise<void> {
    return this.#sink.close();
  }
}
