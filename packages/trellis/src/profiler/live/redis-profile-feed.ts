import type { Redis } from 'ioredis';
import type { ProfileSummary } from '../profile.ts';
import type { FeedListener, ProfileFeed } from './profile-feed.ts';

/** What the feed needs of a subscriber connection (an ioredis client in subscriber mode). */
export type RedisSubscriber = Pick<Redis, 'subscribe' | 'on' | 'quit' | 'disconnect'>;

/**
 * The feed of every process writing to one Redis store: its write script publishes the summaries
 * of each batch it stores on `<prefix>live` (redis-profile-scripts.ts), and this feed subscribes
 * to that channel. A Redis connection in subscriber mode can run no other command, so the feed
 * has one of its own, opened on the first `subscribe` (no one opens the live view: no
 * connection) and kept until `close`. ioredis resubscribes by itself after a reconnection;
 * what was published meanwhile is lost (pub/sub keeps nothing), which a live view can afford.
 */
export class RedisProfileFeed implements ProfileFeed {
  readonly #connect: () => RedisSubscriber;
  readonly #channel: string;
  readonly #listeners = new Set<FeedListener>();
  #subscriber: RedisSubscriber | null = null;
  #subscribed: Promise<unknown> | null = null;

  constructor(connect: () => RedisSubscriber, channel: string) {
    this.#connect = connect;
    this.#channel = channel;
  }

  async subscribe(listener: FeedListener): Promise<() => void> {
    this.#subscribed ??= this.#open();
    await this.#subscribed;
    const own: FeedListener = (s) => listener(s);
    this.#listeners.add(own);
    return () => void this.#listeners.delete(own);
  }

  async close(): Promise<void> {
    this.#listeners.clear();
    const subscriber = this.#subscriber;
    this.#subscriber = null;
    this.#subscribed = null;
    if (!subscriber) return;
    // QUIT waits for Redis's answer; a connection that is down would keep close waiting for it.
    await Promise.race([subscriber.quit().catch(() => {}), new Promise((done) => setTimeout(done, 1000).unref())]);
    subscriber.disconnect();
  }

  async #open(): Promise<void> {
    const subscriber = this.#connect();
    this.#subscriber = subscriber;
    // Errors are ioredis reconnecting; the store's own client reports an outage.
    subscriber.on('error', () => {});
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.#channel) return;
      let summaries: ProfileSummary[];
      try {
        summaries = JSON.parse(message) as ProfileSummary[];
      } catch {
        return;
      }
      for (const listener of this.#listeners) {
        try {
          listener(summaries);
        } catch {
          // See LocalProfileFeed.publish.
        }
      }
    });
    try {
      await subscriber.subscribe(this.#channel);
    } catch (error) {
      // Not subscribed: the next live view tries again with a fresh connection.
      this.#subscribed = null;
      this.#subscriber = null;
      subscriber.disconnect();
      throw error;
    }
  }
}
