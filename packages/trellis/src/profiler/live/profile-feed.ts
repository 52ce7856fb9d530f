import type { ProfileSummary } from '../profile.ts';

/** Called with the summaries of profiles as they are stored, oldest first. */
export type FeedListener = (summaries: readonly ProfileSummary[]) => void;

/**
 * Profiles as they are recorded, for the live view (live-route.ts). Contract (checked by
 * `profile-feed.contract.ts` against every implementation):
 * - `subscribe` resolves once the listener is attached: every profile recorded after that (by
 *   this process, or by every process sharing the store for a shared feed) reaches it, in the
 *   order recorded; nothing recorded before does. It resolves to the function that detaches it,
 *   after which the listener is never called again.
 * - A listener that throws does not stop the others.
 * - Subscribing costs the recording side nothing while no one listens: a feed that needs a
 *   connection of its own (Redis) opens it on the first `subscribe`, not before.
 * - `close` detaches every listener and releases what the feed opened; it never hangs.
 */
export interface ProfileFeed {
  subscribe(listener: FeedListener): Promise<() => void>;
  close(): Promise<void>;
}
