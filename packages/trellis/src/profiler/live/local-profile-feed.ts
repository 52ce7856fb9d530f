import type { ProfileSummary } from '../profile.ts';
import type { FeedListener, ProfileFeed } from './profile-feed.ts';

/**
 * The feed of one process (memory and SQLite stores): the profiler publishes what it hands on to
 * be stored (feeding-sink.ts), so a live view sees the requests of its own process only. Stores
 * shared by several processes bring their own feed (`ProfileStorage.openFeed`).
 */
export class LocalProfileFeed implements ProfileFeed {
  readonly #listeners = new Set<FeedListener>();

  /** Whether anyone listens: publishers skip the work of a summary when no one does. */
  get listening(): boolean {
    return this.#listeners.size > 0;
  }

  publish(summaries: readonly ProfileSummary[]): void {
    if (summaries.length === 0) return;
    for (const listener of this.#listeners) {
      try {
        listener(summaries);
      } catch {
        // One broken listener (a stream that failed mid-write) must not starve the others.
      }
    }
  }

  async subscribe(listener: FeedListener): Promise<() => void> {
    // Wrapped, so the same function subscribed twice is two subscriptions.
    const own: FeedListener = (s) => listener(s);
    this.#listeners.add(own);
    return () => void this.#listeners.delete(own);
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}
