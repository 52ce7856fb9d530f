import { matchesQuery, toSummary, type Profile, type ProfileQuery, type ProfileSummary } from '../profile.ts';
import { TokenTakenError, type ProfileStorage, type RetentionOptions } from './profile-storage.ts';

/**
 * In-process store for tests and single-process development (`PROFILER_DSN=memory:`). Profiles
 * are kept in write order; retention drops from the oldest end, so it touches only what it drops.
 * `find` filters newest first and stops at `limit`.
 */
export class MemoryProfileStorage implements ProfileStorage {
  readonly #profiles = new Map<string, string>();
  readonly #summaries = new Map<string, ProfileSummary>();
  readonly #retention: RetentionOptions;
  readonly #now: () => number;

  constructor(retention: RetentionOptions, now: () => number = Date.now) {
    this.#retention = retention;
    this.#now = now;
  }

  async write(profile: Profile): Promise<void> {
    if (this.#profiles.has(profile.token)) throw new TokenTakenError(profile.token);
    // Stored serialised, so a stored profile cannot be changed through a reference the caller kept.
    this.#profiles.set(profile.token, JSON.stringify(profile));
    this.#summaries.set(profile.token, toSummary(profile));
    this.#enforceRetention();
  }

  async read(token: string): Promise<Profile | null> {
    const json = this.#profiles.get(token);
    if (json === undefined || this.#expired(this.#summaries.get(token)!)) return null;
    return JSON.parse(json) as Profile;
  }

  async find(query: ProfileQuery): Promise<ProfileSummary[]> {
    this.#enforceRetention();
    if (query.token !== undefined) {
      const s = this.#summaries.get(query.token);
      return s && matchesQuery(s, query) ? [s] : [];
    }
    // Newest write first, then a stable sort by time: equal times keep newest-write-first.
    const all = [...this.#summaries.values()].reverse();
    all.sort((a, b) => b.time - a.time);
    const out: ProfileSummary[] = [];
    for (const s of all) {
      if (out.length >= query.limit) break;
      if (matchesQuery(s, query)) out.push(s);
    }
    return out;
  }

  async tokens(limit: number): Promise<string[]> {
    const all = [...this.#summaries.keys()];
    return all.slice(Math.max(0, all.length - limit));
  }

  async purge(): Promise<void> {
    this.#profiles.clear();
    this.#summaries.clear();
  }

  async close(): Promise<void> {}

  #expired(s: ProfileSummary): boolean {
    return s.time < this.#now() - this.#retention.ttlSeconds * 1000;
  }

  #enforceRetention(): void {
    for (const [token, s] of this.#summaries) {
      if (this.#summaries.size <= this.#retention.maxProfiles && !this.#expired(s)) break;
      this.#summaries.delete(token);
      this.#profiles.delete(token);
    }
  }
}
