/**
 * A profile: what the profiler recorded about one request (or one sub-request), as plain JSON-safe
 * data. The summary fields are what storage indexes and the search listing shows; `collectors`
 * holds each collector's data under its name.
 */
export interface ProfileSummary {
  /** 6 lowercase hex characters, unique in the store. */
  readonly token: string;
  /** The token of the request this one is a sub-request of, or null for a main request. */
  readonly parent: string | null;
  /** Client address in IPv4 form (after trusted proxies). */
  readonly ip: string;
  readonly method: string;
  /** Absolute URL (scheme, host, path, query), secret query values redacted. */
  readonly url: string;
  /** Epoch milliseconds at which the request started. */
  readonly time: number;
  readonly statusCode: number;
  readonly durationMs: number;
  /**
   * Present, true, while the profile is pinned: exempt from retention (storage/profile-storage.ts).
   * Store state, not part of what is written: a record is written unpinned.
   */
  readonly pinned?: true;
}

export interface Profile extends ProfileSummary {
  /** Tokens of the sub-requests this request made, in order. */
  readonly children: readonly string[];
  readonly collectors: Readonly<Record<string, unknown>>;
}

/** A search; every field narrows the result, all optional. Results come newest first. */
export interface ProfileQuery {
  readonly token?: string;
  /** Exact client address. */
  readonly ip?: string;
  /** Exact method, upper case. */
  readonly method?: string;
  readonly statusCode?: number;
  /**
   * A class of status codes: 4 is 400-499 (`4xx`). No store keeps an index of its own for it: like
   * a URL substring, it is checked on a bounded walk of the newest profiles (`maxScan`).
   */
  readonly statusClass?: 1 | 2 | 3 | 4 | 5;
  /** Substring of the absolute URL. */
  readonly url?: string;
  /** Epoch ms, inclusive. */
  readonly start?: number;
  /** Epoch ms, exclusive. */
  readonly end?: number;
  /** Only main requests (no parent): what `latest` means. */
  readonly mainOnly?: boolean;
  /** Only pinned profiles, whatever their age. */
  readonly pinned?: boolean;
  /** At most this many results (1..1000). */
  readonly limit: number;
}

export function toSummary(p: ProfileSummary): ProfileSummary {
  return { token: p.token, parent: p.parent, ip: p.ip, method: p.method, url: p.url, time: p.time, statusCode: p.statusCode, durationMs: p.durationMs };
}

/** Whether a summary matches every field of a query (used by stores that filter in memory). */
export function matchesQuery(p: ProfileSummary, q: ProfileQuery): boolean {
  if (q.token !== undefined && p.token !== q.token) return false;
  if (q.ip !== undefined && p.ip !== q.ip) return false;
  if (q.method !== undefined && p.method !== q.method) return false;
  if (q.statusCode !== undefined && p.statusCode !== q.statusCode) return false;
  if (q.statusClass !== undefined && Math.floor(p.statusCode / 100) !== q.statusClass) return false;
  if (q.url !== undefined && !p.url.includes(q.url)) return false;
  if (q.start !== undefined && p.time < q.start) return false;
  if (q.end !== undefined && p.time >= q.end) return false;
  if (q.mainOnly && p.parent !== null) return false;
  if (q.pinned && p.pinned !== true) return false;
  return true;
}

/**
 * The panels a profile holds data for, in order: a collector that had nothing to say for this
 * request stores null (the CPU profile of a request that did not ask for one) and is not listed.
 */
export function panelsWithData(profile: Profile): string[] {
  return Object.keys(profile.collectors).filter((name) => profile.collectors[name] !== null && profile.collectors[name] !== undefined);
}
