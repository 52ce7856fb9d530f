import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { Profile, ProfileQuery, ProfileSummary } from '../profile.ts';
import { TokenTakenError, type ProfileStorage, type RetentionOptions } from './profile-storage.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS profiles (
  seq INTEGER PRIMARY KEY,
  token TEXT NOT NULL UNIQUE,
  parent TEXT,
  ip TEXT NOT NULL,
  method TEXT NOT NULL,
  url TEXT NOT NULL,
  time INTEGER NOT NULL,
  status INTEGER NOT NULL,
  duration REAL NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS profiles_time_url ON profiles (time, seq, url);
CREATE INDEX IF NOT EXISTS profiles_method_time ON profiles (method, time);
CREATE INDEX IF NOT EXISTS profiles_status_time ON profiles (status, time);
CREATE INDEX IF NOT EXISTS profiles_ip_time ON profiles (ip, time);
DROP INDEX IF EXISTS profiles_time;
DROP TABLE IF EXISTS profiles_url_0;
DROP TABLE IF EXISTS profiles_url_1;
`;

const SUMMARY_COLUMNS = 'p.token, p.parent, p.ip, p.method, p.url, p.time, p.status AS statusCode, p.duration AS durationMs';
const CANDIDATE_COLUMNS = 'p.seq, p.token, p.parent, p.ip, p.method, p.url, p.time, p.status, p.duration';

interface Pending {
  readonly profile: Profile;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** `sqlite:<file>` → the file path (`:memory:` kept). */
export function sqlitePathOf(dsn: string): string {
  return dsn.replace(/^sqlite:/, '');
}

/**
 * The default store (`PROFILER_DSN=sqlite:var/profiler.db`): one row per profile with the indexed
 * summary columns and the whole profile as a JSON blob, WAL journal. Writes are queued and committed
 * in one transaction per 10 ms window, so request handling never waits on the disk.
 *
 * Indexes: (time, seq, url), (method, time), (status, time), (ip, time) — each implicitly ends with
 * the rowid, so "newest first" walks an index backwards and stops at `limit`. Combinations no single
 * index answers (two exact filters, `mainOnly`, a URL substring) are checked on the newest `maxScan`
 * (10,000) candidates of the driving index: bounded work, at the price of not finding older
 * matches. A URL substring alone walks the time index, which carries the URL, so no row is read
 * until a match is found. (An FTS5 trigram index answered URL searches over the whole store before;
 * it cost more per request than the rest of the insert, for a search the default retention of
 * 10,000 profiles does not need.) Retention deletes by rowid and time ranges: index range deletes.
 */
export class SqliteProfileStorage implements ProfileStorage {
  readonly #db: DatabaseSync;
  readonly #retention: RetentionOptions;
  readonly #now: () => number;
  readonly #maxScan: number;
  readonly #batchWindowMs: number;
  readonly #statements = new Map<string, StatementSync>();
  #pending: Pending[] = [];
  /** When expired profiles were last deleted: at most once a second, not on every batch. */
  #expiredAt = 0;
  /** Rowids at or below this one are already gone, so trimming deletes only a fresh range. */
  #trimmedTo = 0;
  #scheduled = false;
  readonly #insert: StatementSync;
  readonly #read: StatementSync;
  readonly #top: StatementSync;
  readonly #deleteBelow: StatementSync;
  readonly #deleteBefore: StatementSync;

  constructor(path: string, retention: RetentionOptions, options: { now?: () => number; maxScan?: number; batchWindowMs?: number } = {}) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.#db = new DatabaseSync(path);
    this.#db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
    this.#db.exec(SCHEMA);
    this.#retention = retention;
    this.#now = options.now ?? Date.now;
    this.#maxScan = options.maxScan ?? 10_000;
    this.#batchWindowMs = options.batchWindowMs ?? 10;
    this.#insert = this.#db.prepare(
      'INSERT OR IGNORE INTO profiles (token, parent, ip, method, url, time, status, duration, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.#read = this.#db.prepare('SELECT data FROM profiles WHERE token = ? AND time >= ?');
    this.#top = this.#db.prepare('SELECT coalesce(max(seq), 0) AS top FROM profiles');
    this.#deleteBelow = this.#db.prepare('DELETE FROM profiles WHERE seq > ? AND seq <= ?');
    this.#deleteBefore = this.#db.prepare('DELETE FROM profiles WHERE time < ?');
  }

  write(profile: Profile): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ profile, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        // A short window gathers many profiles into one transaction under load.
        setTimeout(() => this.#flush(), this.#batchWindowMs);
      }
    });
  }

  async read(token: string): Promise<Profile | null> {
    const row = this.#read.get(token, this.#cutoff()) as { data: string } | undefined;
    return row ? (JSON.parse(row.data) as Profile) : null;
  }

  // read and find do not flush queued writes: the contract promises visibility once `write`
  // resolves.
  async find(query: ProfileQuery): Promise<ProfileSummary[]> {
    const { sql, params } = this.#findSql(query);
    return this.#statement(sql).all(...params).map((row) => ({ ...(row as object) }) as ProfileSummary);
  }

  /** SQLite's plan for a query, so tests and benchmarks can check that no full scan happens. */
  explain(query: ProfileQuery): string[] {
    const { sql, params } = this.#findSql(query);
    return this.#db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params).map((r) => String((r as { detail: unknown }).detail));
  }

  async tokens(limit: number): Promise<string[]> {
    this.#flush();
    const rows = this.#db.prepare('SELECT token FROM (SELECT seq, token FROM profiles ORDER BY seq DESC LIMIT ?) ORDER BY seq').all(limit);
    return rows.map((r) => String((r as { token: unknown }).token));
  }

  async purge(): Promise<void> {
    this.#flush();
    this.#db.exec('DELETE FROM profiles');
    this.#trimmedTo = 0;
  }

  async close(): Promise<void> {
    this.#flush();
    if (this.#db.isOpen) this.#db.close();
  }

  #findSql(query: ProfileQuery): { sql: string; params: (string | number)[] } {
    type Cond = readonly [string, readonly (string | number)[]];
    const time: Cond[] = [['p.time >= ?', [this.#cutoff()]]];
    if (query.start !== undefined) time.push(['p.time >= ?', [query.start]]);
    if (query.end !== undefined) time.push(['p.time < ?', [query.end]]);
    // Exact filters, most selective first: the first one drives the index walk.
    const exact: Cond[] = [];
    if (query.token !== undefined) exact.push(['p.token = ?', [query.token]]);
    if (query.ip !== undefined) exact.push(['p.ip = ?', [query.ip]]);
    if (query.statusCode !== undefined) exact.push(['p.status = ?', [query.statusCode]]);
    if (query.method !== undefined) exact.push(['p.method = ?', [query.method]]);
    const rest: Cond[] = query.mainOnly ? [['p.parent IS NULL', []]] : [];
    const where = (conds: readonly Cond[]) => ({ sql: conds.map((c) => c[0]).join(' AND ') || '1', params: conds.flatMap((c) => c[1]) });
    const order = 'ORDER BY p.time DESC, p.seq DESC';

    if (query.url !== undefined && exact.length === 0 && rest.length === 0) {
      // A URL substring alone: the newest maxScan entries of the time index, which holds the URL,
      // are tested without reading their rows; only the matches are joined.
      const window = where(time);
      return {
        sql: `SELECT ${SUMMARY_COLUMNS} FROM (SELECT seq, time FROM (SELECT seq, time, url FROM profiles p INDEXED BY profiles_time_url WHERE ${window.sql} ${order} LIMIT ?)
          WHERE instr(url, ?) > 0 LIMIT ?) m JOIN profiles p ON p.seq = m.seq ${order}`,
        params: [...window.params, this.#maxScan, query.url, query.limit],
      };
    }
    if (query.url !== undefined) rest.push(['instr(p.url, ?) > 0', [query.url]]);
    const [driving, ...others] = exact;
    const residual = [...others, ...rest];
    if (residual.length === 0) {
      const all = where([...time, ...(driving ? [driving] : [])]);
      return { sql: `SELECT ${SUMMARY_COLUMNS} FROM profiles p WHERE ${all.sql} ${order} LIMIT ?`, params: [...all.params, query.limit] };
    }
    // Filters no single index answers are checked on a bounded walk of the driving index: at most
    // maxScan candidates, newest first, so a combination that matches nothing is never a full scan.
    const inner = where([...time, ...(driving ? [driving] : [])]);
    const outer = where(residual);
    return {
      sql: `SELECT ${SUMMARY_COLUMNS} FROM (SELECT ${CANDIDATE_COLUMNS} FROM profiles p WHERE ${inner.sql} ${order} LIMIT ?) p WHERE ${outer.sql} ${order} LIMIT ?`,
      params: [...inner.params, this.#maxScan, ...outer.params, query.limit],
    };
  }

  /** Prepared once per query shape (there are a few dozen at most): `find` runs on every request. */
  #statement(sql: string): StatementSync {
    let stmt = this.#statements.get(sql);
    if (!stmt) {
      if (this.#statements.size > 256) this.#statements.clear();
      stmt = this.#db.prepare(sql);
      this.#statements.set(sql, stmt);
    }
    return stmt;
  }

  #cutoff(): number {
    return this.#now() - this.#retention.ttlSeconds * 1000;
  }

  #flush(): void {
    this.#scheduled = false;
    const batch = this.#pending;
    if (batch.length === 0 || !this.#db.isOpen) return;
    this.#pending = [];
    const outcomes: (unknown | null)[] = [];
    try {
      this.#db.exec('BEGIN');
      for (const { profile: p } of batch) {
        const result = this.#insert.run(p.token, p.parent, p.ip, p.method, p.url, p.time, p.statusCode, p.durationMs, JSON.stringify(p));
        if (result.changes === 0) {
          outcomes.push(new TokenTakenError(p.token));
          continue;
        }
        outcomes.push(null);
      }
      this.#enforceRetention();
      this.#db.exec('COMMIT');
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => (outcomes[i] ? item.reject(outcomes[i]) : item.resolve()));
  }

  #enforceRetention(): void {
    // Rowids are handed out in write order, so the newest `maxProfiles` are the top rowid range.
    const { top } = this.#top.get() as { top: number };
    const keepAbove = top - this.#retention.maxProfiles;
    if (keepAbove > this.#trimmedTo) {
      this.#deleteBelow.run(this.#trimmedTo, keepAbove);
      this.#trimmedTo = keepAbove;
    }
    // Expired rows are invisible to read and find already; deleting them is housekeeping.
    const now = this.#now();
    if (now - this.#expiredAt < 1000) return;
    this.#expiredAt = now;
    const cutoff = this.#cutoff();
    this.#deleteBefore.run(cutoff);
  }
}
