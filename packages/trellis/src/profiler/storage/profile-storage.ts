import type { ProfileQuery, ProfileSummary } from '../profile.ts';
import type { ProfileFeed } from '../live/profile-feed.ts';
import type { ProfileRecord } from './profile-record.ts';

/** Retention applied by every store: at most `maxProfiles`, none older than `ttlSeconds`. */
export interface RetentionOptions {
  readonly maxProfiles: number;
  readonly ttlSeconds: number;
}

/**
 * Where profiles are kept, as records: the summary fields a store indexes, and the profile's data
 * as JSON text it stores as given (profile-record.ts). Contract (checked by
 * `profile-storage.contract.ts` against every implementation):
 * - `write` stores a record; it rejects with {@link TokenTakenError} when the token is already
 *   stored, and never overwrites. Once it resolves, `read` and `find` see the profile.
 * - `read` returns the record as written (deep-equal), or null when unknown or expired.
 * - `find` returns summaries matching every field of the query, newest first (by `time`, then by
 *   write order), at most `limit`; it uses indexes or a bounded scan, never a walk of the whole store.
 * - Retention: after writes, no more than `maxProfiles` are kept (the oldest go first) and none older
 *   than `ttlSeconds` is returned; enforcing it never scans the whole store.
 * - `tokens(limit)` lists the tokens of the newest `limit` stored profiles, oldest first (the
 *   profiler seeds its token issuer with them when it opens, so it never asks per request).
 * - Pins: `pin(token, true)` exempts a stored profile from retention (neither `maxProfiles` nor
 *   `ttlSeconds` removes it, and it does not count towards `maxProfiles`); `read` and `find`
 *   then give it with `pinned: true`, whatever its age, and `find` lists it in its place among
 *   the others (newest first). `pin(token, false)` puts it back under retention (gone at once
 *   if older than the TTL). Both resolve to whether the token names a stored profile; pinning
 *   twice changes nothing. A pinned token stays taken. `find({ pinned: true })` lists only
 *   pinned profiles.
 * - `purge` removes every profile; `purge({ keepPinned: true })` every profile not pinned.
 *   `close` releases connections the store opened itself.
 * - `openFeed`, on a store several processes share (Redis), is the feed of the profiles every one
 *   of them writes (live/profile-feed.ts); it opens no connection before it is subscribed to.
 *   A store without it is fed by the profiler of this process.
 * - `claimIssuerSlot`, on a store several processes share, claims one of `slots` slots no other
 *   process writing to it holds, calls `onChange` with it (and with null or another slot if it is
 *   lost and claimed again), and keeps it until `close`: the profiler then issues only tokens of its
 *   slot (token.ts, `partition`), so processes never draw each other's tokens. With every slot
 *   held, `onChange(null)`. A store without it is written by one process.
 */
export interface ProfileStorage {
  write(record: ProfileRecord): Promise<void>;
  read(token: string): Promise<ProfileRecord | null>;
  find(query: ProfileQuery): Promise<ProfileSummary[]>;
  tokens(limit: number): Promise<string[]>;
  pin(token: string, pinned: boolean): Promise<boolean>;
  purge(options?: PurgeOptions): Promise<void>;
  close(): Promise<void>;
  openFeed?(): ProfileFeed;
  claimIssuerSlot?(slots: number, onChange: (slot: number | null) => void): Promise<void>;
}

export interface PurgeOptions {
  /** Keep pinned profiles (the profiler's Purge button); everything goes without it. */
  readonly keepPinned?: boolean;
}

export class TokenTakenError extends Error {
  readonly token: string;
  constructor(token: string) {
    super(`A profile with token "${token}" is already stored`);
    this.name = 'TokenTakenError';
    this.token = token;
  }
}
