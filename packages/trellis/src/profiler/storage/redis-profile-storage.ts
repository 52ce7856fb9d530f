import type { Redis } from 'ioredis';
import { RedisIssuerSlot } from './redis-issuer-slot.ts';
import { matchesQuery, toSummary, type ProfileQuery, type ProfileSummary } from '../profile.ts';
import { RedisProfileFeed } from '../live/redis-profile-feed.ts';
import type { ProfileFeed } from '../live/profile-feed.ts';
import type { ProfileRecord } from './profile-record.ts';
import { TokenTakenError, type ProfileStorage, type PurgeOptions, type RetentionOptions } from './profile-storage.ts';
import { defineProfileScripts, PIN_COMMAND, TRIM_COMMAND, WRITE_COMMAND } from './redis-profile-scripts.ts';

/** The commands this store uses; an ioredis client (or cluster-aware wrapper) fits. */
export type RedisProfileClient = Pick<
  Redis,
  'get' | 'zcount' | 'zrange' | 'zrevrangebyscore' | 'mget' | 'zrem' | 'del' | 'scan' | 'pipeline' | 'defineCommand' | 'quit' | 'disconnect' | 'duplicate' | 'set' | 'incr' | 'eval'
>;

export interface RedisProfileStorageOptions extends RetentionOptions {
  /** Key prefix, so several apps (or test files) can share a database. */
  readonly prefix?: string;
  /** Most index entries one `find` examines before giving up (filters with no index of their own). */
  readonly maxScan?: number;
  /** Quit the client on close (true when the store opened it). */
  readonly ownsClient?: boolean;
  readonly now?: () => number;
  /** The client's last connection error while it is not connected, if known: what a failed command is blamed on. */
  readonly connectionError?: () => Error | null;
}

interface PendingWrite {
  readonly record: ProfileRecord;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

const PAGE = 200;
/** Pages of the summary set after the first: its entries need no second round trip, so they can be big. */
const SUMMARY_PAGE = 2500;
const TRIM_BATCH = 500;
/** Profiles per write script call. */
const WRITE_CHUNK = 100;

/**
 * Profiles in Redis, for many processes (`PROFILER_DSN=redis://…`). Layout under the prefix:
 * `p:<token>` the record's data and `s:<token>` its summary (both with EX = what is left of the TTL);
 * sorted sets scored by time: `time` (all), `main` (no parent), `method:<M>`, `status:<S>`, `ip:<IP>`,
 * and `sum`, whose members are the summaries' JSON themselves (same scores as `time`).
 *
 * `find` walks the smallest sorted set among the query's exact filters, newest first, in pages,
 * checking the other filters on the summaries; it examines at most `maxScan` entries, so a filter
 * with no index of its own (a URL substring) is a bounded scan, never a walk of everything. With
 * no exact filter it walks `sum`: one ZREVRANGEBYSCORE per page brings the summaries along, where
 * token pages needed an MGET each (10,000 summaries took 100 round trips, p95 26 ms).
 * Retention trims the oldest entries of `time` by rank (maxProfiles) and by score (TTL), at most
 * TRIM_BATCH per batch of writes, with their keys; the other index sets drop what is older than
 * the oldest profile kept when next written to (redis-profile-scripts.ts); `sum` is trimmed to
 * the same rank and score bounds. Writes are batched: everything written in one turn of the event
 * loop (and whatever arrives while a batch is in flight) goes in one pipeline of server-side
 * scripts (redis-profile-scripts.ts), one round trip.
 */
export class RedisProfileStorage implements ProfileStorage {
  readonly #client: RedisProfileClient;
  readonly #prefix: string;
  readonly #options: RedisProfileStorageOptions;
  readonly #now: () => number;
  #seq = 0;
  #pending: PendingWrite[] = [];
  #flushing: Promise<void> | null = null;
  #slot: RedisIssuerSlot | null = null;

  constructor(client: RedisProfileClient, options: RedisProfileStorageOptions) {
    this.#client = client;
    this.#options = options;
    this.#prefix = options.prefix ?? 'trellis:profiler:';
    this.#now = options.now ?? Date.now;
    defineProfileScripts(client);
  }

  write(record: ProfileRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ record, resolve, reject });
      if (this.#flushing === null) this.#flushing = new Promise<void>((done) => setImmediate(done)).then(() => this.#flush());
    });
  }

  /**
   * Writes what is queued in one round trip whatever its size, and repeats while more arrived
   * meanwhile: one profile at a time took about 20 commands and five round trips each, and under
   * load Redis fell behind.
   */
  async #flush(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending;
      this.#pending = [];
      try {
        await this.#writeBatch(batch);
      } catch (error) {
        const reason = this.#explained(error);
        for (const item of batch) item.reject(reason);
      }
    }
    this.#flushing = null;
  }

  async #writeBatch(batch: readonly PendingWrite[]): Promise<void> {
    const k = this.#prefix;
    const { ttlSeconds, maxProfiles } = this.#options;
    // One pipeline, one round trip: a script per chunk of profiles (each claims its token with
    // SET NX, then summary and indexes, see redis-profile-scripts.ts), then one retention pass.
    // Chunks keep each script short: Redis serves no one else while one runs.
    const pipeline = this.#client.pipeline() as unknown as Record<string, (...args: unknown[]) => unknown> & { exec(): Promise<[Error | null, unknown][] | null> };
    const now = this.#now();
    for (let from = 0; from < batch.length; from += WRITE_CHUNK) {
      const args: (string | number)[] = [k, ttlSeconds];
      for (const { record } of batch.slice(from, from + WRITE_CHUNK)) {
        const ttl = Math.max(1, Math.ceil(ttlSeconds - (now - record.time) / 1000));
        // Same-millisecond profiles keep their write order: the score's last three digits are a counter.
        const score = record.time * 1000 + (this.#seq++ % 1000);
        const suffixes = this.#indexSuffixes(record);
        args.push(record.token, record.data, JSON.stringify(toSummary(record)), ttl, score, suffixes.length, ...suffixes);
      }
      pipeline[WRITE_COMMAND]!(...args);
    }
    pipeline[TRIM_COMMAND]!(k, maxProfiles, TRIM_BATCH, this.#cutoff() * 1000);
    const replies = (await pipeline.exec()) ?? [];
    batch.forEach(({ record, resolve, reject }, i) => {
      const [error, flags] = replies[Math.floor(i / WRITE_CHUNK)] ?? [new Error('No reply from Redis')];
      if (error) reject(this.#explained(error));
      else if ((flags as unknown[])[i % WRITE_CHUNK] !== 1) reject(new TokenTakenError(record.token));
      else resolve();
    });
  }

  read(token: string): Promise<ProfileRecord | null> {
    return this.#explaining(this.#read(token));
  }

  async #read(token: string): Promise<ProfileRecord | null> {
    const [data, summary] = await this.#client.mget(`${this.#prefix}p:${token}`, `${this.#prefix}s:${token}`);
    if (data == null || summary == null) return null;
    const s = JSON.parse(summary) as ProfileSummary;
    if (s.pinned) return { ...toSummary(s), pinned: true, data };
    return s.time < this.#cutoff() ? null : { ...toSummary(s), data };
  }

  /**
   * Pinned profiles are in none of the sets the other searches walk (redis-profile-scripts.ts,
   * PIN): those matching are added, in their place by time, to what the indexes give.
   */
  find(query: ProfileQuery): Promise<ProfileSummary[]> {
    return this.#explaining(this.#find(query));
  }

  async #find(query: ProfileQuery): Promise<ProfileSummary[]> {
    if (query.token !== undefined) {
      const json = await this.#client.get(`${this.#prefix}s:${query.token}`);
      const s = json === null ? null : (JSON.parse(json) as ProfileSummary);
      return s && (s.pinned || s.time >= this.#cutoff()) && matchesQuery(s, query) ? [s] : [];
    }
    if (query.pinned) return this.#findPinned(query);
    const [found, pinned] = await Promise.all([this.#findIndexed(query), this.#findPinned(query)]);
    if (pinned.length === 0) return found;
    // A stable sort: equal times keep the indexes' order, then the pinned ones'.
    return [...found, ...pinned].sort((a, b) => b.time - a.time).slice(0, query.limit);
  }

  /** The pinned profiles matching a query, newest first (they are few: each summary is checked). */
  async #findPinned(query: ProfileQuery): Promise<ProfileSummary[]> {
    const max = query.end !== undefined ? `(${query.end * 1000}` : '+inf';
    const min = query.start !== undefined ? query.start * 1000 : '-inf';
    const tokens = await this.#client.zrevrangebyscore(`${this.#prefix}pinned`, max, min, 'LIMIT', 0, this.#options.maxScan ?? 10_000);
    if (tokens.length === 0) return [];
    const out: ProfileSummary[] = [];
    for (const json of await this.#client.mget(...tokens.map((t) => `${this.#prefix}s:${t}`))) {
      if (json === null || out.length >= query.limit) continue;
      const s = JSON.parse(json) as ProfileSummary;
      if (matchesQuery(s, query)) out.push(s);
    }
    return out;
  }

  async #findIndexed(query: ProfileQuery): Promise<ProfileSummary[]> {
    const cutoff = this.#cutoff();
    // The method, status and IP sets may still hold entries of profiles retention dropped, all
    // older than the oldest profile kept: they are read from its score up.
    const floor = query.method !== undefined || query.statusCode !== undefined || query.ip !== undefined ? await this.#oldestKept() : 0;
    const key = await this.#smallestIndex(query, floor);
    const max = query.end !== undefined ? `(${query.end * 1000}` : '+inf';
    const min = Math.max(Math.max(cutoff, query.start ?? 0) * 1000, floor);
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

  tokens(limit: number): Promise<string[]> {
    return this.#explaining(this.#tokens(limit));
  }

  async #tokens(limit: number): Promise<string[]> {
    if (limit <= 0) return [];
    const newest = await this.#client.zrevrangebyscore(`${this.#prefix}time`, '+inf', '-inf', 'LIMIT', 0, limit);
    return newest.reverse();
  }

  pin(token: string, pinned: boolean): Promise<boolean> {
    return this.#explaining(this.#pin(token, pinned));
  }

  async #pin(token: string, pinned: boolean): Promise<boolean> {
    await this.#flushing;
    const command = (this.#client as unknown as Record<string, (...args: unknown[]) => Promise<number>>)[PIN_COMMAND]!;
    return (await command.call(this.#client, this.#prefix, token, pinned ? 1 : 0, this.#options.ttlSeconds, this.#now())) === 1;
  }

  purge(options: PurgeOptions = {}): Promise<void> {
    return this.#explaining(this.#purge(options));
  }

  async #purge(options: PurgeOptions = {}): Promise<void> {
    await this.#flushing;
    const k = this.#prefix;
    const kept = new Set<string>();
    if (options.keepPinned) {
      kept.add(`${k}pinned`);
      for (const token of await this.#client.zrange(`${k}pinned`, 0, -1)) kept.add(`${k}p:${token}`).add(`${k}s:${token}`);
    }
    let cursor = '0';
    do {
      const [next, keys] = await this.#client.scan(cursor, 'MATCH', `${k}*`, 'COUNT', 1000);
      // The token slots of the processes writing here are theirs, not profiles: deleted, a process
      // starting before their next renewal claimed a slot another was issuing from.
      const doomed = keys.filter((key) => !kept.has(key) && !key.startsWith(`${k}issuer-`));
      if (doomed.length > 0) await this.#client.del(...doomed);
      cursor = next;
    } while (cursor !== '0');
  }

  /** The profiles every process writes here, from `<prefix>live` (redis-profile-feed.ts). */
  openFeed(): ProfileFeed {
    return new RedisProfileFeed(() => this.#client.duplicate(), `${this.#prefix}live`);
  }

  /**
   * ioredis fails the commands queued while it reconnects with "Reached the max retries per request
   * limit (which is 2)…", or "Command timed out", which name no cause: the connection's own error
   * (ECONNREFUSED, a DNS failure) does, and the store's outage lines and 503 pages quote it.
   */
  #explained(error: unknown): unknown {
    const cause = this.#options.connectionError?.();
    if (!cause || !(error instanceof Error) || (error.name !== 'MaxRetriesPerRequestError' && error.message !== 'Command timed out')) return error;
    return new Error(`Redis is unreachable: ${cause.message}`, { cause: error });
  }

  /** A read's failure explained as a write's is (the profiler's 503 pages quote it). */
  async #explaining<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      throw this.#explained(error);
    }
  }

  async claimIssuerSlot(slots: number, onChange: (slot: number | null) => void): Promise<void> {
    await this.#slot?.release();
    this.#slot = new RedisIssuerSlot(this.#client, this.#prefix, slots, onChange);
    await this.#slot.claim();
  }

  async close(): Promise<void> {
    await this.#flushing;
    await this.#slot?.release();
    if (!this.#options.ownsClient) return;
    // QUIT waits for Redis's answer: on a partitioned connection (nothing closed, no reply) it
    // waited for ever, and a SIGTERM took the whole shutdown grace and exited 1.
    await Promise.race([this.#client.quit().catch(() => {}), new Promise((done) => setTimeout(done, 1000).unref())]);
    this.#client.disconnect();
  }

  #cutoff(): number {
    return this.#now() - this.#options.ttlSeconds * 1000;
  }

  #indexSuffixes(p: ProfileSummary): string[] {
    const suffixes = ['time', `method:${p.method}`, `status:${p.statusCode}`, `ip:${p.ip}`];
    if (p.parent === null) suffixes.push('main');
    return suffixes;
  }

  /** The score of the oldest profile kept (0 when none). */
  async #oldestKept(): Promise<number> {
    const [, score] = await this.#client.zrange(`${this.#prefix}time`, 0, 0, 'WITHSCORES');
    return score === undefined ? 0 : Number(score);
  }

  async #smallestIndex(query: ProfileQuery, floor: number): Promise<string> {
    const k = this.#prefix;
    const candidates: string[] = [];
    if (query.method !== undefined) candidates.push(`${k}method:${query.method}`);
    if (query.statusCode !== undefined) candidates.push(`${k}status:${query.statusCode}`);
    if (query.ip !== undefined) candidates.push(`${k}ip:${query.ip}`);
    if (query.mainOnly) candidates.push(`${k}main`);
    if (candidates.length === 0) return `${k}time`;
    if (candidates.length === 1) return candidates[0]!;
    const sizes = await Promise.all(candidates.map((c) => this.#client.zcount(c, floor, '+inf')));
    return candidates[sizes.indexOf(Math.min(...sizes))]!;
  }
}
