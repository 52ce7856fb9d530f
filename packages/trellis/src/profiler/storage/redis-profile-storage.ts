import type { Redis } from 'ioredis';
import { matchesQuery, toSummary, type Profile, type ProfileQuery, type ProfileSummary } from '../profile.ts';
import { TokenTakenError, type ProfileStorage, type RetentionOptions } from './profile-storage.ts';

/** The commands this store uses; an ioredis client (or cluster-aware wrapper) fits. */
export type RedisProfileClient = Pick<
  Redis,
  'set' | 'get' | 'mget' | 'del' | 'zcard' | 'zrevrangebyscore' | 'zrangebyscore' | 'zrange' | 'zrem' | 'scan' | 'multi' | 'quit'
>;

export interface RedisProfileStorageOptions extends RetentionOptions {
  /** Key prefix, so several apps (or test files) can share a database. */
  readonly prefix?: string;
  /** Most index entries one `find` examines before giving up (filters with no index of their own). */
  readonly maxScan?: number;
  /** Quit the client on close (true when the store opened it). */
  readonly ownsClient?: boolean;
  readonly now?: () => number;
}

interface PendingWrite {
  readonly profile: Profile;
  readonly json: string;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

const PAGE = 200;
/** Pages of the summary set after the first: its entries need no second round trip, so they can be big. */
const SUMMARY_PAGE = 2500;
const TRIM_BATCH = 500;

/**
 * Profiles in Redis, for many processes (`PROFILER_DSN=redis://…`). Layout under the prefix:
 * `p:<token>` the profile JSON and `s:<token>` its summary (both with EX = what is left of the TTL);
 * sorted sets scored by time: `time` (all), `main` (no parent), `method:<M>`, `status:<S>`, `ip:<IP>`,
 * and `sum`, whose members are the summaries' JSON themselves (same scores as `time`).
 *
 * `find` walks the smallest sorted set among the query's exact filters, newest first, in pages,
 * checking the other filters on the summaries; it examines at most `maxScan` entries, so a filter
 * with no index of its own (a URL substring) is a bounded scan, never a walk of everything. With
 * no exact filter it walks `sum`: one ZREVRANGEBYSCORE per page brings the summaries along, where
 * token pages needed an MGET each (10,000 summaries took 100 round trips, p95 26 ms).
 * Retention trims the oldest entries of `time` by rank (maxProfiles) and by score (TTL), at most
 * TRIM_BATCH per batch of writes, removing them from their index sets too; `sum` is trimmed to
 * the same rank and score bounds in the same MULTI. Writes are batched:
 * everything written in one turn of the event loop (and whatever arrives while a batch is in
 * flight) goes in one round of MULTIs.
 */
export class RedisProfileStorage implements ProfileStorage {
  readonly #client: RedisProfileClient;
  readonly #prefix: string;
  readonly #options: RedisProfileStorageOptions;
  readonly #now: () => number;
  #seq = 0;
  #pending: PendingWrite[] = [];
  #flushing: Promise<void> | null = null;

  constructor(client: RedisProfileClient, options: RedisProfileStorageOptions) {
    this.#client = client;
    this.#options = options;
    this.#prefix = options.prefix ?? 'trellis:profiler:';
    this.#now = options.now ?? Date.now;
  }

  write(profile: Profile): Promise<void> {
    return new Promise((resolve, reject) => {
      // Serialised now: what is stored is the profile as it was when written.
      this.#pending.push({ profile, json: JSON.stringify(profile), resolve, reject });
      if (this.#flushing === null) this.#flushing = new Promise<void>((done) => setImmediate(done)).then(() => this.#flush());
    });
  }

  /**
   * Writes what is queued in three round trips whatever its size (token claims, then summaries and
   * indexes, then one retention pass), and repeats while more arrived meanwhile: one profile at a
   * time took about 20 commands and five round trips each, and under load Redis fell behind.
   */
  async #flush(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending;
      this.#pending = [];
      try {
        await this.#writeBatch(batch);
      } catch (error) {
        for (const item of batch) item.reject(error);
      }
    }
    this.#flushing = null;
  }

  async #writeBatch(batch: readonly PendingWrite[]): Promise<void> {
    const k = this.#prefix;
    const ttls = batch.map(({ profile }) => Math.max(1, Math.ceil(this.#options.ttlSeconds - (this.#now() - profile.time) / 1000)));
    // SET NX first: a token claim that fails must not touch the indexes.
    const claims = this.#client.multi();
    batch.forEach(({ profile, json }, i) => claims.set(`${k}p:${profile.token}`, json, 'EX', ttls[i]!, 'NX'));
    const claimed = (await claims.exec()) ?? [];
    const indexes = this.#client.multi();
    const touched = new Set<string>();
    batch.forEach(({ profile }, i) => {
      if (claimed[i]?.[1] !== 'OK') return;
      // Same-millisecond profiles keep their write order: the score's last three digits are a counter.
      const score = profile.time * 1000 + (this.#seq++ % 1000);
      const summary = JSON.stringify(toSummary(profile));
      indexes.set(`${k}s:${profile.token}`, summary, 'EX', ttls[i]!);
      indexes.zadd(`${k}sum`, score, summary);
      touched.add(`${k}sum`);
      for (const key of this.#indexKeys(profile)) {
        indexes.zadd(key, score, profile.token);
        touched.add(key);
      }
    });
    for (const key of touched) indexes.expire(key, this.#options.ttlSeconds);
    if (touched.size > 0) await indexes.exec();
    await this.#enforceRetention();
    batch.forEach(({ profile, resolve, reject }, i) => {
      const [error, reply] = claimed[i] ?? [new Error('No reply from Redis')];
      if (error) reject(error);
      else if (reply !== 'OK') reject(new TokenTakenError(profile.token));
      else resolve();
    });
  }

  async read(token: string): Promise<Profile | null> {
    const json = await this.#client.get(`${this.#prefix}p:${token}`);
    if (json === null) return null;
    const profile = JSON.parse(json) as Profile;
    return profile.time < this.#cutoff() ? null : profile;
  }

  async find(query: ProfileQuery): Promise<ProfileSummary[]> {
    const cutoff = this.#cutoff();
    if (query.token !== undefined) {
      const json = await this.#client.get(`${this.#prefix}s:${query.token}`);
      const s = json === null ? null : (JSON.parse(json) as ProfileSummary);
      return s && s.time >= cutoff && matchesQuery(s, query) ? [s] : [];
    }
    const key = await this.#smallestIndex(query);
    const max = query.end !== undefined ? `(${query.end * 1000}` : '+inf';
    const min = Math.max(cutoff, query.start ?? 0) * 1000;
    const maxScan = this.#options.maxScan ?? 10_000;
    if (key === `${this.#prefix}time`) return this.#findInSummaries(query, max, min, maxScan);
    const out: ProfileSummary[] = [];
    for (let offset = 0; offset < maxScan && out.length < query.limit; offset += PAGE) {
      const tokens = await this.#client.zrevrangebyscore(key, max, min, 'LIMIT', offset, PAGE);
      if (tokens.length === 0) break;
      const jsons = await this.#client.mget(...tokens.map((t) => `${this.#prefix}s:${t}`));
      const gone: string[] = [];
      jsons.forEach((json, i) => {
        if (json === null) return void gone.push(tokens[i]!);
        const s = JSON.parse(json) as ProfileSummary;
        if (out.length < query.limit && matchesQuery(s, query)) out.push(s);
      });
      // Entries whose summary expired are dropped from the index as they are met.
      if (gone.length > 0) await this.#client.zrem(key, ...gone);
      if (tokens.length < PAGE) break;
    }
    return out;
  }

  /**
   * A query with no exact filter, over `sum`. A URL substring is looked for in the member's text
   * before it is parsed: JSON escapes character by character, so a URL holding the substring holds
   * its escaped form too, and most members are rejected without a parse.
   */
  async #findInSummaries(query: ProfileQuery, max: string, min: number, maxScan: number): Promise<ProfileSummary[]> {
    const needle = query.url === undefined ? null : JSON.stringify(query.url).slice(1, -1);
    const out: ProfileSummary[] = [];
    let size = Math.min(PAGE, maxScan);
    for (let offset = 0; offset < maxScan && out.length < query.limit; offset += size, size = Math.min(SUMMARY_PAGE, maxScan - offset)) {
      const members = await this.#client.zrevrangebyscore(`${this.#prefix}sum`, max, min, 'LIMIT', offset, size);
      for (let i = 0; i < members.length && out.length < query.limit; i++) {
        if (needle !== null && !members[i]!.includes(needle)) continue;
        const s = JSON.parse(members[i]!) as ProfileSummary;
        if (matchesQuery(s, query)) out.push(s);
      }
      if (members.length < size) break;
    }
    return out;
  }

  async tokens(limit: number): Promise<string[]> {
    if (limit <= 0) return [];
    const newest = await this.#client.zrevrangebyscore(`${this.#prefix}time`, '+inf', '-inf', 'LIMIT', 0, limit);
    return newest.reverse();
  }

  async purge(): Promise<void> {
    await this.#flushing;
    let cursor = '0';
    do {
      const [next, keys] = await this.#client.scan(cursor, 'MATCH', `${this.#prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await this.#client.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }

  async close(): Promise<void> {
    await this.#flushing;
    if (this.#options.ownsClient) await this.#client.quit();
  }

  #cutoff(): number {
    return this.#now() - this.#options.ttlSeconds * 1000;
  }

  #indexKeys(p: ProfileSummary): string[] {
    const k = this.#prefix;
    const keys = [`${k}time`, `${k}method:${p.method}`, `${k}status:${p.statusCode}`, `${k}ip:${p.ip}`];
    if (p.parent === null) keys.push(`${k}main`);
    return keys;
  }

  async #smallestIndex(query: ProfileQuery): Promise<string> {
    const k = this.#prefix;
    const candidates: string[] = [];
    if (query.method !== undefined) candidates.push(`${k}method:${query.method}`);
    if (query.statusCode !== undefined) candidates.push(`${k}status:${query.statusCode}`);
    if (query.ip !== undefined) candidates.push(`${k}ip:${query.ip}`);
    if (query.mainOnly) candidates.push(`${k}main`);
    if (candidates.length === 0) return `${k}time`;
    if (candidates.length === 1) return candidates[0]!;
    const sizes = await Promise.all(candidates.map((c) => this.#client.zcard(c)));
    return candidates[sizes.indexOf(Math.min(...sizes))]!;
  }

  async #enforceRetention(): Promise<void> {
    const k = this.#prefix;
    const count = await this.#client.zcard(`${k}time`);
    const excess = Math.min(count - this.#options.maxProfiles, TRIM_BATCH);
    const doomed = excess > 0 ? await this.#client.zrange(`${k}time`, 0, excess - 1) : [];
    const expired = await this.#client.zrangebyscore(`${k}time`, '-inf', `(${this.#cutoff() * 1000}`, 'LIMIT', 0, TRIM_BATCH);
    const tokens = [...new Set([...doomed, ...expired])];
    if (tokens.length === 0) return;
    const jsons = await this.#client.mget(...tokens.map((t) => `${k}s:${t}`));
    const multi = this.#client.multi();
    // `sum` holds what `time` holds: trimmed to the same bounds, whichever entries are doomed.
    if (excess > 0) multi.zremrangebyrank(`${k}sum`, 0, -(this.#options.maxProfiles + 1));
    multi.zremrangebyscore(`${k}sum`, '-inf', `(${this.#cutoff() * 1000}`);
    tokens.forEach((token, i) => {
      const json = jsons[i];
      const keys = json ? this.#indexKeys(JSON.parse(json) as ProfileSummary) : [`${k}time`, `${k}main`];
      for (const key of keys) multi.zrem(key, token);
      multi.del(`${k}p:${token}`, `${k}s:${token}`);
    });
    await multi.exec();
  }
}
