import { matchesQuery, toSummary, type ProfileQuery, type ProfileSummary } from '../profile.ts';
import type { ProfileRecord } from './profile-record.ts';
import { TokenTakenError, type ProfileStorage, type PurgeOptions, type RetentionOptions } from './profile-storage.ts';

/**
 * In-process store for tests and single-process development (`PROFILER_DSN=memory:`). Profiles
 * are kept in write order; retention drops from the oldest end, so it touches only what it drops
 * (and the pinned profiles it steps over there, which are few).
 * `find` filters newest first and stops at `limit`.
 */
export class MemoryProfileStorage implements ProfileStorage {
  readonly #profiles = new Map<string, string>();
  readonly #summaries = new Map<string, ProfileSummary>();
  readonly #pinned = new Set<string>();
  readonly #retention: RetentionOptions;
  readonly #now: () => number;

  constructor(retention: RetentionOptions, now: () => number = Date.now) {
    this.#retention = retention;
    this.#now = now;
  }

  async write(record: ProfileRecord): Promise<void> {
    if (this.#profiles.has(record.token)) throw new TokenTakenError(record.token);
    // Copied field by field (the data is a string), so a reference the caller kept cannot change it.
    this.#profiles.set(record.token, record.data);
    this.#summaries.set(record.token, toSummary(record));
    this.#enforceRetention();
  }

  async read(token: string): Promise<ProfileRecord | null> {
    const data = this.#profiles.get(token);
    const summary = this.#summaries.get(token);
    if (data === undefined || summary === undefined || this.#expired(summary)) return null;
    return { ...summary, data };
  }

  async find(query: ProfileQuery): Promise<ProfileSummary[]> {
    this.#enforceRetention();
    if (query.token !== undefined) {
      const s = this.#summaries.get(query.token);
      return s && !this.#expired(s) && matchesQuery(s, query) ? [s] : [];
    }
    // Newest write first, then a stable sort by time: equal times keep newest-write-first.
    const all = [...this.#summaries.values()].reverse();
    all.sort((a, b) => b.time - a.time);
    const out: ProfileSummary[] = [];
    for (const s of all) {
      if (out.length >= query.limit) break;
      if (!this.#expired(s) && matchesQuery(s, query)) out.push(s);
    }
    return out;
  }

  async tokens(limit: number): Promise<string[]> {
    const all = [...this.#summaries.keys()];
    return all.slice(Math.max(0, all.length - limit));
  }

  async pin(token: string, pinned: boolean): Promise<boolean> {
    const s = this.#summaries.get(token);
    if (s === undefined || this.#expired(s)) return false;
    if (pinned) this.#pinned.add(token);
    else this.#pinned.delete(token);
    this.#summaries.set(token, pinned ? { ...toSummary(s), pinned: true } : toSummary(s));
    return true;
  }

  async purge(options: PurgeOptions = {}): Promise<void> {
    for (const token of [...this.#summaries.keys()]) {
      if (options.keepPinned && this.#pinned.has(token)) continue;
      this.#summaries.delete(token);
      this.#profiles.delete(token);
      this.#pinned.delete(token);
    }
  }

  async close(): Promise<void> {}

  #expired(s: ProfileSummary): boolean {
    return s.pinned !== true && s.time < this.#now() - this.#retention.ttlSeconds * 1000;
  }

  #enforceRetention(): void {
    // Pinned profiles neither go nor count: only the others are held to maxProfiles.
    let unpinned = this.#summaries.size - this.#pinned.size;
    for (const [token, s] of this.#summaries) {
      if (this.#pinned.has(token)) continue;
      if (unpinned <= this.#retention.maxProfiles && !this.#expired(s)) break;
      this.#summaries.delete(token);
      this.#profiles.delete(token);
      unpinned--;
    }
  }
}
