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
CREATE INDEX IF NOT EXISTS profiles_time ON profiles (time);
CREATE INDEX IF NOT EXISTS profiles_method_time ON profiles (method, time);
CREATE INDEX IF NOT EXISTS profiles_status_time ON profiles (status, time);
CREATE INDEX IF NOT EXISTS profiles_ip_time ON profiles (ip, time);
CREATE VIRTUAL TABLE IF NOT EXISTS profiles_url USING fts5 (url, tokenize = 'trigram');
`;

const SUMMARY_COLUMNS = 'p.token, p.parent, p.ip, p.method, p.url, p.time, p.status AS statusCode, p.duration AS durationMs';

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
 * in one transaction per event-loop turn, so request handling never waits on the disk.
 *
 * Indexes: time, (method, time), (status, time), (ip, time) — each implicitly ends with the rowid,
 * so "newest first" walks an index backwards and stops at `limit`. URL substrings go through an FTS5
 * trigram index; those results are ordered by write order, which is time order for everything the
 * profiler writes. Filters shorter than 3 characters cannot use trigrams and scan at most the
 * newest `shortUrlScan` rows. Retention deletes by rowid and time ranges: index range deletes.
 */
export class SqliteProfileStorage implements ProfileStorage {
  readonly #db: DatabaseSync;
  readonly #retention: RetentionOptions;
  readonly #now: () => number;
  readonly #shortUrlScan: number;
  #pending: Pending[] = [];
  /** Rowids at or below this one are already gone, so trimming deletes only a fresh range. */
  #trimmedTo = 0;
  #scheduled = false;
  readonly #insert: StatementSync;
  readonly #insertUrl: StatementSync;
  readonly #read: StatementSync;
  readonly #top: StatementSync;
  readonly #deleteBelow: StatementSync;
  readonly #deleteUrlsBelow: StatementSync;
  readonly #deleteUrlsBefore: StatementSync;
  readonly #deleteBefore: StatementSync;

  constructor(path: string, retention: RetentionOptions, options: { now?: () => number; shortUrlScan?: number } = {}) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.#db = new DatabaseSync(path);
    this.#db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
    this.#db.exec(SCHEMA);
    this.#retention = retention;
    this.#now = options.now ?? Date.now;
    this.#shortUrlScan = options.shortUrlScan ?? 50_000;
    this.#insert = this.#db.prepare(
      'INSERT OR IGNORE INTO profiles (token, parent, ip, method, url, time, status, duration, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.#insertUrl = this.#db.prepare('INSERT INTO profiles_url (rowid, url) VALUES (?, ?)');
    this.#read = this.#db.prepare('SELECT data FROM profiles WHERE token = ? AND time >= ?');
    this.#top = this.#db.prepare('SELECT coalesce(max(seq), 0) AS top FROM profiles');
    this.#deleteBelow = this.#db.prepare('DELETE FROM profiles WHERE seq > ? AND seq <= ?');
    this.#deleteUrlsBelow = this.#db.prepare('DELETE FROM profiles_url WHERE rowid > ? AND rowid <= ?');
    this.#deleteUrlsBefore = this.#db.prepare('DELETE FROM profiles_url WHERE rowid IN (SELECT seq FROM profiles WHERE time < ?)');
    this.#deleteBefore = this.#db.prepare('DELETE FROM profiles WHERE time < ?');
  }

  write(profile: Profile): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ profile, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  async read(token: string): Promise<Profile | null> {
    const row = this.#read.get(token, this.#cutoff()) as { data: string } | undefined;
    return row ? (JSON.parse(row.data) as Profile) : null;
  }

  // read and find do not flush queued writes: the contract promises visibility once `write`
  // resolves, and the profiler checks token freshness with `find` on every request.
  async find(query: ProfileQuery): Promise<ProfileSummary[]> {
    const { sql, params } = this.#findSql(query);
    return this.#db.prepare(sql).all(...params).map((row) => ({ ...(row as object) }) as ProfileSummary);
  }

  /** SQLite's plan for a query, so tests and benchmarks can check that no full scan happens. */
  explain(query: ProfileQuery): string[] {
    const { sql, params } = this.#findSql(query);
    return this.#db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params).map((r) => String((r as { detail: unknown }).detail));
  }

  async purge(): Promise<void> {
    this.#flush();
    this.#db.exec('DELETE FROM profiles; DELETE FROM profiles_url;');
    this.#trimmedTo = 0;
  }

  async close(): Promise<void> {
    this.#flush();
    if (this.#db.isOpen) this.#db.close();
  }

  #findSql(query: ProfileQuery): { sql: string; params: (string | number)[] } {
    const where: string[] = ['p.time >= ?'];
    const params: (string | number)[] = [this.#cutoff()];
    if (query.token !== undefined) (where.push('p.token = ?'), params.push(query.token));
    if (query.ip !== undefined) (where.push('p.ip = ?'), params.push(query.ip));
    if (query.method !== undefined) (where.push('p.method = ?'), params.push(query.method));
    if (query.statusCode !== undefined) (where.push('p.status = ?'), params.push(query.statusCode));
    if (query.start !== undefined) (where.push('p.time >= ?'), params.push(query.start));
    if (query.end !== undefined) (where.push('p.time < ?'), params.push(query.end));
    if (query.mainOnly) where.push('p.parent IS NULL');
    let sql: string;
    if (query.url !== undefined && query.url.length >= 3) {
      // An FTS5 phrase of one string matches it as a substring under the trigram tokenizer.
      sql = `SELECT ${SUMMARY_COLUMNS} FROM profiles_url f JOIN profiles p ON p.seq = f.rowid
        WHERE f.url MATCH ? AND ${where.join(' AND ')} ORDER BY f.rowid DESC LIMIT ?`;
      params.unshift(`"${query.url.replaceAll('"', '""')}"`);
    } else {
      if (query.url !== undefined) {
        where.push('instr(p.url, ?) > 0', 'p.seq > (SELECT coalesce(max(seq), 0) FROM profiles) - ?');
        params.push(query.url, this.#shortUrlScan);
      }
      sql = `SELECT ${SUMMARY_COLUMNS} FROM profiles p WHERE ${where.join(' AND ')} ORDER BY p.time DESC, p.seq DESC LIMIT ?`;
    }
    params.push(query.limit);
    return { sql, params };
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
        this.#insertUrl.run(result.lastInsertRowid, p.url);
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
      this.#deleteUrlsBelow.run(this.#trimmedTo, keepAbove);
      this.#trimmedTo = keepAbove;
    }
    const cutoff = this.#cutoff();
    this.#deleteUrlsBefore.run(cutoff);
    this.#deleteBefore.run(cutoff);
  }
}
